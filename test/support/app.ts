// Starts real app instances on port 0 for API tests, on Redis (unique prefix) or in memory.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createApp, type App, type AppOptions } from '../../src/app';
import { createMemoryStorage } from '../../src/store/memory';
import { createRedisStorage } from '../../src/store/redis';
import type { Storage } from '../../src/store/store';
import type { TestAccount } from './accounts';
import { deletePrefix, REDIS_URL, uniquePrefix } from './redis';

export interface Running {
  readonly app: App;
  readonly url: string;
  readonly storage: Storage;
}

export type StoreKind = 'redis' | 'memory';

export interface StartOptions {
  /** Apps started with the same Redis prefix share one keyspace. */
  readonly prefix?: string;
  /** GraphQL limits (default: the app's). */
  readonly graphql?: AppOptions['graphql'];
  /** graphql-ws limits (default: the app's). */
  readonly websocket?: AppOptions['websocket'];
  /** The clock of the services (and of the memory store), for tests of expiry. */
  readonly now?: () => Date;
  /** Webhook options (default: private targets allowed, no delivery interval: tests call deliverWebhooks). */
  readonly webhooks?: AppOptions['webhooks'];
  /** Where /rules pages are read from (default: the repository's docs/rules). */
  readonly rulesDir?: string;
  /** Unlimited games: how long before an abandoned game may be claimed (default 3 days). */
  readonly abandonClaimMs?: number;
  /** Any other app option (edge settings, quotas, logger…), passed as is. */
  readonly app?: Partial<AppOptions>;
  /** Start on this storage instead of a new one (e.g. a test's own Redis server). */
  readonly storage?: Storage;
}

/** Starts apps; `stopAll` stops them and deletes their Redis keys. */
export function appHarness() {
  const running: Running[] = [];
  const prefixes: string[] = [];
  return {
    /** A listening app; apps started with the same `prefix` share one Redis keyspace. */
    async start(
      store: StoreKind,
      prefixOrOptions?: string | StartOptions,
      graphql?: AppOptions['graphql'],
    ): Promise<Running> {
      const options: StartOptions =
        typeof prefixOrOptions === 'object'
          ? prefixOrOptions
          : { ...(prefixOrOptions ? { prefix: prefixOrOptions } : {}), ...(graphql ? { graphql } : {}) };
      const now = options.now;
      let storage: Storage;
      if (options.storage) {
        storage = options.storage;
      } else if (store === 'redis') {
        const p = options.prefix ?? uniquePrefix('api');
        if (!prefixes.includes(p)) prefixes.push(p);
        storage = await createRedisStorage(REDIS_URL, p);
      } else {
        storage = createMemoryStorage(now ? () => now().getTime() : undefined);
      }
      // Limits far above what a test sends (test/api/rate-limit.test.ts sets its own); no sweeper.
      const rateLimits = { perToken: 1_000_000, perIp: 1_000_000, windowSeconds: 60 };
      // Quotas far above what a test makes too (tests of quotas set their own).
      const quotas = {
        ongoingGamesPerAccount: 1_000_000,
        tokensPerAccount: 1_000_000,
        accountsPerIpPerDay: 1_000_000,
        gamesPerIpPerDay: 1_000_000,
        challengesPerAccount: 1_000_000,
        challengesPerPair: 1_000_000,
        aiGamesPerIpPerDay: 1_000_000,
        ongoingAiGamesPerIp: 1000,
      };
      // Stream caps far above what a test opens too (test/api/stream-caps.test.ts sets its own).
      const streams = { perIp: 1_000_000, perToken: 1_000_000, maxBufferBytes: 1024 * 1024 };
      const app = await createApp({
        storage,
        streams,
        ...(options.graphql ? { graphql: options.graphql } : {}),
        ...(options.websocket ? { websocket: options.websocket } : {}),
        rateLimits,
        quotas,
        sweepIntervalMs: 0,
        tournaments: { openPerAccount: 1_000_000 },
        webhooks: { allowPrivate: true, intervalMs: 0, ...options.webhooks },
        ...(now ? { now } : {}),
        ...(options.rulesDir ? { rulesDir: options.rulesDir } : {}),
        ...(options.abandonClaimMs !== undefined ? { abandonClaimMs: options.abandonClaimMs } : {}),
        ...options.app,
      });
      const port = await app.listen(0, '127.0.0.1');
      const run = { app, url: `http://127.0.0.1:${port}`, storage };
      running.push(run);
      return run;
    },
    async stopAll(): Promise<void> {
      await Promise.all(running.splice(0).map((r) => r.app.stop()));
      await Promise.all(prefixes.splice(0).map((p) => deletePrefix(p)));
    },
  };
}

/** A graphql-ws client for an app's /graphql. */
export function wsClient(url: string, connectionParams?: Record<string, unknown>): Client {
  return createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    ...(connectionParams ? { connectionParams } : {}),
  });
}

/** POST a GraphQL request; returns the parsed body and status. */
export async function gql(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { data?: Record<string, any>; errors?: Array<Record<string, any>> } }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as never };
}

/** Deterministic choice among legal moves, so a whole game replays the same way every run. */
export function chooser(seed: number): (moves: readonly string[]) => string {
  let state = seed >>> 0 || 1;
  return (moves) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return moves[(state >>> 0) % moves.length] as string;
  };
}

/** A game view without its moves: the head that feed events and stream updates carry. */
export function headOf<T extends { readonly moves?: unknown }>(game: T): Omit<T, 'moves'> {
  const { moves: _moves, ...head } = game;
  return head;
}

/** A REST call under /api/v1 as `who` (null: anonymous); the body parsed as JSON (null when empty). */
export async function rest(
  run: Running,
  who: TestAccount | null,
  method: string,
  path: string,
  body?: object,
) {
  const res = await fetch(`${run.url}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(who ? who.auth : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}

/** A REST call under /api/v1 with the given headers; the body parsed as JSON, with the headers. */
export async function call(run: Running, method: string, path: string, body?: unknown, headers = {}) {
  const res = await fetch(`${run.url}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
