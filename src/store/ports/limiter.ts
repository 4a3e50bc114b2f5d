// Rate limiting.

export interface LimiterOptions {
  /** Separates limiters that share a store (e.g. 'token', 'ip'). */
  readonly name: string;
  readonly points: number;
  readonly windowSeconds: number;
}

export interface LimiterVerdict {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Points counted in the window so far, these included (past the limit when refused). */
  readonly consumed: number;
  /** Milliseconds until the window resets. */
  readonly resetMs: number;
}

export interface RateLimiter {
  readonly options: LimiterOptions;
  /** Takes `points` (default 1) from the key's window; refused when fewer are left. */
  consume(key: string, points?: number): Promise<LimiterVerdict>;
}
