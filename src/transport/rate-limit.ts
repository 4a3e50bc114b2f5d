import {
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { hashToken } from '../service/accounts/auth';
import { GameError, toGameError } from '../service/errors';
import { addressBucket } from '../service/accounts/quotas';
import type { LimiterVerdict, RateLimiter, Storage } from '../service/types';
import type { AppUsage } from '../service/apps/usage';

// Rate limits per API token and per client IP, shared by every node through the storage (Redis or
// this process). Every limited response says where the caller stands, in the IETF draft
// "RateLimit header fields for HTTP" form (draft-ietf-httpapi-ratelimit-headers-09):
//   RateLimit-Policy: "token";q=600;w=60, "ip";q=1200;w=60
//   RateLimit: "token";r=597;t=41          (the policy with the fewest requests left)
// A request with an app's key or session token also counts against the app's requestsPerSecond
// (every key and session of the app together): the policy "app" (`"app";q=200;w=1`).

export interface RateLimits {
  /** Requests per window for each bearer token. */
  readonly perToken: number;
  /** Requests per window for each client IP (all its tokens and anonymous requests together). */
  readonly perIp: number;
  readonly windowSeconds: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { perToken: 600, perIp: 1200, windowSeconds: 60 };

export interface RateDecision {
  readonly allowed: boolean;
  readonly policyHeader: string;
  readonly rateHeader: string;
  /** Seconds until the tightest window resets (for Retry-After). */
  readonly retryAfterSeconds: number;
  /** The policy that refused (or has the fewest requests left). */
  readonly policy: string;
  /** The app whose requestsPerSecond counted the request (an app key's or session token's). */
  readonly app?: string;
}

/**
 * Counts requests against the token's and the IP's windows: one per HTTP request, plus, for GraphQL,
 * one more for each root field of a mutation past the first (aliases included) and one per
 * graphql-ws operation (see graphQLOperationCount).
 */
export class RateGate {
  private readonly token: Reservations;
  private readonly ip: Reservations;
  private readonly policyHeader: string;

  constructor(
    storage: Storage,
    readonly limits: RateLimits,
    /** Per-app request rates (the "app" policy); absent: none. */
    private readonly apps?: AppUsage,
  ) {
    this.token = new Reservations(
      storage.limiter({ name: 'token', points: limits.perToken, windowSeconds: limits.windowSeconds }),
    );
    this.ip = new Reservations(
      storage.limiter({ name: 'ip', points: limits.perIp, windowSeconds: limits.windowSeconds }),
    );
    this.policyHeader = `"token";q=${limits.perToken};w=${limits.windowSeconds}, "ip";q=${limits.perIp};w=${limits.windowSeconds}`;
  }

  /** `ip` counts in its bucket: the IPv4 address, or the IPv6 /64 (addressBucket). */
  async check(
    bearer: string | undefined,
    ip: string,
    points = 1,
    /** hashToken(bearer), if the caller has it already. */
    bearerHash: string | undefined = bearer ? hashToken(bearer) : undefined,
  ): Promise<RateDecision> {
    const checks: Array<Promise<[string, LimiterVerdict]>> = [
      this.ip.consume(addressBucket(ip), points).then((v) => ['ip', v]),
    ];
    // Keyed by the token's hash: the limiter store never holds a usable secret.
    if (bearer && bearerHash) checks.push(this.token.consume(bearerHash, points).then((v) => ['token', v]));
    const app =
      bearer && bearerHash && this.apps ? await this.appCheck(bearer, bearerHash, points) : undefined;
    const verdicts = await Promise.all(checks);
    if (app) verdicts.push(['app', app.verdict]);
    const refused = verdicts.filter(([, v]) => !v.allowed);
    // Report the window that binds: a refusing one (the longest wait), else the fewest left.
    const [policy, tightest] = (refused.length > 0 ? refused : verdicts).reduce((a, b) =>
      b[1].remaining < a[1].remaining || (b[1].remaining === a[1].remaining && b[1].resetMs > a[1].resetMs)
        ? b
        : a,
    );
    const seconds = Math.max(1, Math.ceil(tightest.resetMs / 1000));
    return {
      allowed: refused.length === 0,
      policyHeader: app ? `${this.policyHeader}, "app";q=${app.verdict.limit};w=1` : this.policyHeader,
      rateHeader: `"${policy}";r=${tightest.remaining};t=${seconds}`,
      retryAfterSeconds: seconds,
      policy,
      ...(app ? { app: app.id } : {}),
    };
  }

  /** The app policy's verdict for a bearer of an app (its key or a session token); undefined for others. */
  private async appCheck(
    bearer: string,
    hash: string,
    points: number,
  ): Promise<{ id: string; verdict: LimiterVerdict } | undefined> {
    const apps = this.apps as AppUsage;
    const id = await apps.appOfCredential(bearer, hash);
    if (id === null) return undefined;
    const verdict = await apps.request(id, points);
    if (!verdict) return undefined;
    return {
      id,
      verdict: { ...verdict, consumed: verdict.limit - verdict.remaining },
    };
  }
}

/** A node takes at most this many requests of a key's window from the store ahead of their use… */
export const MAX_AHEAD = 15;
/** …and at most this share (1/64) of what the window had left when the node last asked. */
const AHEAD_SHARE = 64;
/** Keys whose reservation a node keeps (the least recently asked are dropped first). */
const RESERVED_KEYS = 10_000;

interface Reserved {
  /** Requests taken from the store ahead of use, not used yet. */
  left: number;
  /** What the store had left for the window when it last answered (others' reservations counted). */
  known: number;
  /** When the window ends (epoch ms): what is left then is dropped. */
  readonly resetAt: number;
}

/**
 * A limiter with requests taken from the store ahead of use: when a key's window has plenty left
 * (at least 64 × what is taken), the node takes up to 15 more than the request needs in the same
 * store call and spends them locally, so most requests cost no round trip. The store's count is
 * never below what was admitted (no request over the limit is admitted on any node); what a node
 * took ahead and did not use before the window ended (at most 15, and at most 1/64 of what was
 * left) is not available to the other nodes. Near the limit (less than 64 left) every request asks
 * the store, as without reservations. The answer's `remaining` counts other nodes' unused
 * reservations as used.
 */
export class Reservations {
  private readonly held = new Map<string, Reserved>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly now: () => number = Date.now,
  ) {}

  async consume(key: string, points = 1): Promise<LimiterVerdict> {
    const limit = this.limiter.options.points;
    const at = this.now();
    let held = this.held.get(key);
    if (held && held.resetAt <= at) {
      this.held.delete(key);
      held = undefined;
    }
    // What this node holds ahead pays first (taken now, so that concurrent requests do not count it twice).
    const local = Math.min(held?.left ?? 0, points);
    if (held) held.left -= local;
    if (held && local === points) {
      return {
        allowed: true,
        limit,
        remaining: held.known + held.left,
        consumed: limit - held.known - held.left,
        resetMs: held.resetAt - at,
      };
    }
    const need = points - local;
    // Only from an answer of this window: the first request of a window takes nothing ahead.
    const ahead = held ? Math.min(MAX_AHEAD, Math.floor(held.known / AHEAD_SHARE)) : 0;
    let verdict: LimiterVerdict;
    try {
      verdict = await this.limiter.consume(key, need + ahead);
    } catch (error) {
      this.giveBack(key, held, local);
      throw error;
    }
    // The count before this call, and whether this request's points fit under the limit.
    const before = verdict.consumed - need - ahead;
    if (before + need > limit) {
      this.giveBack(key, held, local);
      this.keep(key, at, verdict, 0);
      return { ...verdict, allowed: false, remaining: 0 };
    }
    // The points taken ahead that fit under the limit are this node's to spend.
    const kept = this.keep(key, at, verdict, Math.min(ahead, limit - before - need));
    return {
      allowed: true,
      limit,
      remaining: kept.known + kept.left,
      consumed: before + need,
      resetMs: verdict.resetMs,
    };
  }

  /** Points taken from a reservation for a request that was refused go back to it (same window). */
  private giveBack(key: string, held: Reserved | undefined, points: number): void {
    if (held && points > 0 && this.held.get(key) === held) held.left += points;
  }

  /** Records the store's answer and the points this node holds ahead (added to any it holds). */
  private keep(key: string, at: number, verdict: LimiterVerdict, usable: number): Reserved {
    const known = Math.max(0, this.limiter.options.points - verdict.consumed);
    const held = this.held.get(key);
    this.held.delete(key);
    const resetAt = at + verdict.resetMs;
    // A concurrent answer of the same window: keep both reservations and the lower count left.
    const same = held !== undefined && held.resetAt > at;
    const kept: Reserved = {
      left: (same ? held.left : 0) + usable,
      known: same ? Math.min(held.known, known) : known,
      resetAt: same ? held.resetAt : resetAt,
    };
    this.held.set(key, kept);
    if (this.held.size > RESERVED_KEYS) this.held.delete(this.held.keys().next().value as string);
    return kept;
  }
}

/** The refusal every transport sends. */
export function rateLimitedError(decision: RateDecision): GameError {
  return new GameError(
    'RATE_LIMITED',
    `Too many requests (${decision.policy} limit); retry in ${decision.retryAfterSeconds} s`,
    {
      policy: decision.policy,
      retryAfterSeconds: decision.retryAfterSeconds,
      ...(decision.app ? { app: decision.app } : {}),
    },
  );
}

/**
 * Express middleware: sets RateLimit-Policy and RateLimit on every response; on refusal answers 429
 * with Retry-After, as `refuse` formats it (problem+json for REST, a GraphQL error for /graphql);
 * `refuse` also answers when the limiter's store is down.
 */
export function rateLimitMiddleware(
  gate: RateGate,
  refuse: (res: Response, error: GameError) => void,
  /** How many requests this one counts as (GraphQL: each operation of a batch). */
  pointsOf: (req: Request) => number = () => 1,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const bearer = bearerOf(req);
    gate.check(bearer, clientIp(req), pointsOf(req), bearer ? tokenHashOf(req, bearer) : undefined).then(
      (decision) => {
        res.setHeader('RateLimit-Policy', decision.policyHeader);
        res.setHeader('RateLimit', decision.rateHeader);
        if (decision.allowed) return next();
        res.setHeader('Retry-After', String(decision.retryAfterSeconds));
        refuse(res, rateLimitedError(decision));
      },
      // A limiter that cannot reach its store answers 503 (never "allowed", never "limited").
      (error: unknown) => refuse(res, toGameError(error)),
    );
  };
}

/**
 * How many requests a GraphQL operation counts as: each root field of a mutation (aliases
 * included) is one, since each acts; a query or subscription is one.
 */
export function graphQLOperationCount(
  operation: OperationDefinitionNode | null | undefined,
  document: DocumentNode,
): number {
  if (!operation || operation.operation !== 'mutation') return 1;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const count = (set: SelectionSetNode, seen: ReadonlySet<string>): number =>
    set.selections.reduce((sum, selection) => {
      if (selection.kind === Kind.FIELD) return sum + 1;
      if (selection.kind === Kind.INLINE_FRAGMENT) return sum + count(selection.selectionSet, seen);
      const fragment = fragments.get(selection.name.value);
      if (!fragment || seen.has(fragment.name.value)) return sum;
      return sum + count(fragment.selectionSet, new Set(seen).add(fragment.name.value));
    }, 0);
  return Math.max(1, count(operation.selectionSet, new Set()));
}

/** The address the limits count a request against. */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Per request: its bearer token and that token's hash, worked out once (the limiter, then auth). */
const HASHES = new WeakMap<Request, { readonly bearer: string; readonly hash: string }>();

/** hashToken(bearer) for the bearer token of `req`, computed once per request. */
export function tokenHashOf(req: Request, bearer: string): string {
  const known = HASHES.get(req);
  if (known?.bearer === bearer) return known.hash;
  const hash = hashToken(bearer);
  HASHES.set(req, { bearer, hash });
  return hash;
}

export function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}
