// @boardhost/client: the typed REST API (generated from the OpenAPI document by openapi-typescript,
// called through openapi-fetch), plus what every client writes otherwise: typed errors, retries,
// idempotency keys, If-Match for game actions, and the event feed as an async iterator.
import createClient, { type Client, type FetchResponse } from 'openapi-fetch';
import { toError } from './errors';
import { consume, follow, type ConsumeOptions, type FeedItem, type FeedOptions } from './feed';
import type { components, paths } from './generated/openapi';
import { retryingFetch, type RetryOptions } from './http';
import { fixedCredentials, Session, type SessionHandle, type SessionOptions } from './session';

export { BoardhostError, isBoardhostError, type ErrorCode, type Problem } from './errors';
export {
  isTransient,
  type ConsumeOptions,
  type FeedEvent,
  type FeedItem,
  type FeedOptions,
  type FeedReady,
} from './feed';
export type { components, operations, paths } from './generated/openapi';
export type { IssuedSession, SessionHandle, SessionOptions, SessionTokens } from './session';
export type { RetryOptions } from './http';
export {
  createBoardhostApp,
  type AppAccount,
  type BoardhostApp,
  type BoardhostAppOptions,
  type EnsuredAccount,
} from './app';

export type Schemas = components['schemas'];
export type Game = Schemas['Game'];
export type GameHead = Schemas['GameHead'];
export type Challenge = Schemas['Challenge'];
export type GameKind = GameHead['kind'];

export interface BoardhostOptions {
  /** The server, e.g. http://localhost:4000 (the API is under /api/v1). */
  readonly baseUrl: string;
  /** A personal API token (bhp_…), or an app key with `account`; omitted for sign-up and seat-token games. */
  readonly token?: string;
  /** With an app key as `token`: act for this account of the app (the Boardhost-Account header). */
  readonly account?: string;
  /**
   * An app's session instead of `token` (the pair its backend got from createSession): the client
   * sends the access token, refreshes the pair when it expires (once for all concurrent requests),
   * sends the refused request again, and hands the new pair to `onRefresh`. A refused refresh
   * throws BoardhostError INVALID_REFRESH_TOKEN: sign the user in again.
   */
  readonly session?: SessionOptions;
  /** Retries after 429/503 and lost connections. */
  readonly retry?: RetryOptions;
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** A game action's answer: the data, or a BoardhostError thrown. */
export async function ok<T extends Record<string | number, unknown>, O, M extends `${string}/${string}`>(
  call: Promise<FetchResponse<T, O, M>>,
): Promise<NonNullable<FetchResponse<T, O, M>['data']>> {
  const { data, error, response } = await call;
  if (!response.ok) throw toError(error, response);
  return data as NonNullable<FetchResponse<T, O, M>['data']>;
}

export interface MoveOptions {
  /** Play only on this version of the game (If-Match); default: the version of the game given. */
  readonly version?: number;
  /**
   * The Idempotency-Key; default `<game id>:<version>:<move>`, so that a bot that decides again on
   * a version it already answered (after a restart) repeats the first answer instead of playing twice.
   */
  readonly idempotencyKey?: string;
}

export interface Boardhost {
  /** Every REST operation, typed: `api.GET('/api/v1/games/{id}', { params: { path: { id } } })`. */
  readonly api: Client<paths>;
  /** The account's event feed, reconnecting and resuming by itself. */
  feed(options?: FeedOptions): AsyncGenerator<FeedItem>;
  /** Runs `handle` on every feed item until it returns true; a transient failure hands the item over again. */
  consume(
    handle: (item: FeedItem) => Promise<boolean | void> | boolean | void,
    options?: ConsumeOptions,
  ): Promise<void>;
  /**
   * Plays `move` in `game` (If-Match: its version); returns the game's new head (the game without
   * its moves list: asked with `Prefer: return=minimal`, so the answer stays small however long the
   * game). Fetch the game for its moves.
   */
  move(game: { id: string; version: number }, move: string, options?: MoveOptions): Promise<GameHead>;
  /** With `session`: its tokens now, and a refresh on demand. */
  readonly session?: SessionHandle;
}

export function createBoardhost(options: BoardhostOptions): Boardhost {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  if (options.session && options.token)
    throw new TypeError('createBoardhost: a token or a session, not both');
  const session = options.session ? new Session(baseUrl, options.session, options.fetch) : undefined;
  const credentials = session ?? fixedCredentials(options.token, options.account);
  const api = createClient<paths>({
    baseUrl,
    fetch: retryingFetch(credentials, options.retry, options.fetch),
  });
  // The feed retries by reconnecting (and resuming) itself: its requests are not retried below it.
  const feedApi = createClient<paths>({
    baseUrl,
    fetch: retryingFetch(credentials, { retries: 0 }, options.fetch),
  });
  return {
    api,
    ...(session ? { session } : {}),
    feed: (feedOptions) => follow(feedApi, feedOptions, credentials),
    consume: (handle, consumeOptions) => consume(feedApi, handle, consumeOptions, credentials),
    move: async (game, move, moveOptions = {}) => {
      const version = moveOptions.version ?? game.version;
      const answer = await ok(
        api.POST('/api/v1/games/{id}/moves', {
          params: {
            path: { id: game.id },
            header: {
              'if-match': `"${version}"`,
              prefer: 'return=minimal',
              'idempotency-key':
                moveOptions.idempotencyKey ??
                `${game.id}:${version}:${move}`.replace(/[^A-Za-z0-9._:-]/g, '_'),
            },
          },
          body: { move },
        }),
      );
      // The server applies the preference; an older one answers the whole game (a GameHead too).
      return 'move' in answer && 'game' in answer ? answer.game : answer;
    },
  };
}
