// @boardhost/client: the typed REST API (generated from the OpenAPI document by openapi-typescript,
// called through openapi-fetch), plus what every client writes otherwise: typed errors, retries,
// idempotency keys, If-Match for game actions, and the event feed as an async iterator.
import createClient, { type Client, type FetchResponse } from 'openapi-fetch';
import { toError } from './errors';
import { consume, follow, type ConsumeOptions, type FeedItem, type FeedOptions } from './feed';
import type { components, paths } from './generated/openapi';
import { retryingFetch, type RetryOptions } from './http';

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

export type Schemas = components['schemas'];
export type Game = Schemas['Game'];
export type GameHead = Schemas['GameHead'];
export type Challenge = Schemas['Challenge'];
export type GameKind = GameHead['kind'];

export interface BoardhostOptions {
  /** The server, e.g. http://localhost:4000 (the API is under /api/v1). */
  readonly baseUrl: string;
  /** A personal API token (bhp_…); omitted for sign-up and seat-token games. */
  readonly token?: string;
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
}

export function createBoardhost(options: BoardhostOptions): Boardhost {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(options.token, options.retry, options.fetch),
  });
  // The feed retries by reconnecting (and resuming) itself: its requests are not retried below it.
  const feedApi = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(options.token, { retries: 0 }, options.fetch),
  });
  return {
    api,
    feed: (feedOptions) => follow(feedApi, feedOptions),
    consume: (handle, consumeOptions) => consume(feedApi, handle, consumeOptions),
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
