// How the search refuses a request. `search` throws a SearchError; `trySearch` returns it as a value
// (JSON-safe, for worker_threads, where a thrown class loses its prototype on the way back).
import type { EngineErrorCode } from '../engines/types';

/** GAME_OVER: the position is finished (the service answers 400 GAME_OVER); the rest: a bad request. */
export type SearchErrorCode = EngineErrorCode | 'UNKNOWN_KIND' | 'INVALID_REQUEST';

export class SearchError extends Error {
  override readonly name = 'SearchError';
  constructor(
    readonly code: SearchErrorCode,
    message: string,
  ) {
    super(message);
  }
}
