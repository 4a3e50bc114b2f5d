import type { Credential } from '../../service/accounts/auth';
import type { Services } from '../../service';
import type { OperationBudget } from './budget';

/** What every resolver gets: the services, and the caller's bearer token if any. */
export interface GraphQLContext {
  readonly services: Services;
  readonly bearerToken?: string;
  /** The account an app key acts for (the `Boardhost-Account` header or connection parameter). */
  readonly actingAccount?: string;
  /** The client address (HTTP: as `TRUST_PROXY` resolves it): per-address quotas and idempotency. */
  readonly ip?: string;
  /** A query's time budget (set once the operation is known; see budget.ts). */
  budget?: OperationBudget;
}

/** The token from an `Authorization: Bearer <token>` header value. */
export function bearerFrom(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The caller's credential: `token` if given, else the request's (or connection's) bearer token. */
export function credentialOf(ctx: GraphQLContext, token?: string | null): Credential {
  const bearer = token ?? ctx.bearerToken;
  const ip = ctx.ip ? { ip: ctx.ip } : {};
  // The acting account goes with the context's own credential, not with a token passed as an argument.
  const account = token === undefined || token === null ? ctx.actingAccount : undefined;
  const acting = account === undefined ? {} : { account };
  return bearer ? { token: bearer, ...ip, ...acting } : { ...ip, ...acting };
}

/** The service's idempotency option from a nullable `idempotencyKey` argument. */
export function keyOf(idempotencyKey: string | null | undefined): { idempotencyKey?: string } {
  return idempotencyKey === undefined || idempotencyKey === null ? {} : { idempotencyKey };
}

/** The description of every create's `idempotencyKey` argument. */
export const IDEMPOTENCY_KEY_DESCRIPTION =
  'A retry with the same key answers the first answer and creates nothing more (24 h); the same key ' +
  'with other arguments is refused with IDEMPOTENCY_KEY_REUSED.';

/** GraphQL sends null for omitted nullable inputs; the services expect the field to be absent. */
export type WithoutNulls<T> = { [K in keyof T]: Exclude<T[K], null> };

/** A copy of `input` without its null and undefined fields (one level). */
export function withoutNulls<T extends object>(input: T): WithoutNulls<T> {
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== null && value !== undefined),
  ) as WithoutNulls<T>;
}
