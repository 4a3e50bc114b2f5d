// One error type for every use case, with stable codes shared by GraphQL (`extensions.code`) and
// REST (`application/problem+json` `code` and `type`). Each transport maps codes once. The codes and
// their HTTP statuses are part of the API's vocabulary (src/vocabulary.ts).
import { GAME_ERROR_CODES, type GameErrorCode } from '../vocabulary';

/** Seconds a client should wait before retrying when the store is down (Retry-After). */
export const RETRY_AFTER_SECONDS = 2;

/** Extra machine-readable facts about an error (current version, candidates, field issues). */
export type ErrorDetails = Readonly<Record<string, unknown>>;

export class GameError extends Error {
  readonly code: GameErrorCode;
  readonly details: ErrorDetails;

  constructor(code: GameErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'GameError';
    this.code = code;
    this.details = details;
  }

  /** The HTTP status that goes with this error's code. */
  get status(): number {
    return GAME_ERROR_CODES[this.code];
  }
}

/** Any thrown value as a GameError (unknown failures become INTERNAL, store outages 503). */
export function toGameError(error: unknown): GameError {
  if (error instanceof GameError) return error;
  if (isStoreOutage(error))
    return new GameError('STORE_UNAVAILABLE', 'The game store is unreachable; retry shortly');
  return new GameError('INTERNAL', 'Internal server error');
}

/**
 * True for the errors ioredis raises when Redis is down, unreachable or stalled (a command timed
 * out), and on a Cluster when a slot has no reachable master (a failover under way: the retries
 * ran out on MOVED/ASK to the dead node, CLUSTERDOWN, TRYAGAIN, or no node answers).
 */
function isStoreOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const text = `${error.name} ${error.message} ${(error as { code?: string }).code ?? ''}`;
  return (
    /Connection is closed|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|MaxRetriesPerRequest|Stream isn't writeable|enableOfflineQueue|connect ETIMEDOUT|Command timed out/i.test(
      text,
    ) ||
    /^(MOVED|ASK) \d+ |^(CLUSTERDOWN|TRYAGAIN|NOREPLICAS)\b|Too many Cluster redirections|None of startup nodes is available|Failed to refresh slots cache|Cluster is ended/.test(
      error.message,
    )
  );
}
