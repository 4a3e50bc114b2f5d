// Idempotency of creates: the first request with a key claims it, runs, and stores its answer;
// a retry meanwhile sees the claim pending, and afterwards the answer.

/** Idempotency records live this long. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export type IdempotencyClaim =
  /** The key was free: the caller runs the create, then completes (or releases) the claim. */
  | { readonly status: 'claimed' }
  /** Another request holds the key and has not answered yet. */
  | { readonly status: 'pending'; readonly fingerprint: string }
  /** The key's first request answered `response`. */
  | { readonly status: 'done'; readonly fingerprint: string; readonly response: string };

export interface IdempotencyStore {
  /** Atomically: the record under `key` if there is one; else a pending one with `fingerprint` for `pendingMs`. */
  claim(key: string, fingerprint: string, pendingMs: number): Promise<IdempotencyClaim>;
  /** Stores the answer under a claimed key, kept `ttlSeconds`. */
  complete(key: string, fingerprint: string, response: string, ttlSeconds: number): Promise<void>;
  /**
   * Drops a claim still pending (its create failed), so that a retry runs again; with
   * `fingerprint`, only a pending claim made with that fingerprint (a compare-and-delete).
   */
  release(key: string, fingerprint?: string): Promise<void>;
}
