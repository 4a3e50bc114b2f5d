import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Credential } from '../../service/accounts/auth';
import { GameError } from '../../service/errors';
import { ACCOUNT_HEADER, actingAccountOf } from '../acting';
import { tokenHashOf } from '../rate-limit';
import type { AppKeyScope, TokenScope } from '../../vocabulary';
import { invalidInput } from './problem';
import * as S from './schemas';

// What every REST route table shares: the route shape, OpenAPI response helpers, input parsing and
// the one place that reads `Authorization: Bearer <token>`.

/** An OpenAPI security requirement list; `[]` marks a public operation. */
export type Security = Array<Record<string, string[]>>;

/** A public operation (no credential needed): OpenAPI `security: []`. */
export const PUBLIC: Security = [];

/**
 * One REST route: its OpenAPI description and its handler, side by side so they cannot drift.
 * Every operation names itself (`operationId`: short camelCase, the method name of generated
 * clients) and says who may call it (`security`, `PUBLIC` for anyone).
 */
export interface RestRoute {
  readonly spec: RouteConfig & { readonly operationId: string; readonly security: Security };
  readonly handle: (req: Request, res: Response) => Promise<void>;
}

/** Response headers, by reference to components.headers (see openapi.ts). */
export const headers = (...names: Array<'ETag' | 'Location'>) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** An application/json response, with the given documented headers. */
export const json = (schema: z.ZodType, description: string, ...withHeaders: Array<'ETag' | 'Location'>) => ({
  description,
  ...(withHeaders.length > 0 ? { headers: headers(...withHeaders) } : {}),
  content: { 'application/json': { schema } },
});

/** What each problem status means, as its OpenAPI description. */
const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (INVALID_INPUT and the other 400 codes)',
  401: 'No credential, or an unknown or revoked one (UNAUTHENTICATED)',
  403: 'The credential may not do this (FORBIDDEN, MISSING_SCOPE)',
  404: 'Not found',
  409: 'Conflicts with the current state',
  410: 'Gone (EVENTS_EXPIRED)',
  413: 'The request body is larger than 64 kB (PAYLOAD_TOO_LARGE)',
  415: 'The request body is not application/json (UNSUPPORTED_MEDIA_TYPE)',
  422: 'Understood but not acceptable (ILLEGAL_MOVE, AMBIGUOUS_MOVE, IDEMPOTENCY_KEY_REUSED)',
};

/** application/problem+json responses for each status. */
export const problems = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: PROBLEM_DESCRIPTIONS[s] ?? 'Problem',
        content: { 'application/problem+json': { schema: S.Problem } },
      },
    ]),
  );

/** Validates `value` (an absent body counts as `{}`); INVALID_INPUT lists each rejected field. */
export function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw invalidInput(where, parsed.error);
  return parsed.data;
}

/**
 * The bearer secret of a request: a seat token (bhs_…), an account token (bhp_…) or an app key
 * (bha_…, with the account it acts for in `Boardhost-Account`); the service decides what it may do.
 * No Authorization header is no credential; any other scheme is refused.
 */
export function credentialOf(req: Request): Credential {
  const auth = req.headers.authorization;
  // req.ip works the address out (trust proxy) on each read: read once.
  const address = req.ip;
  const ip = address ? { ip: address } : {};
  const acting = actingAccountOf(req.headers[ACCOUNT_HEADER]);
  const account = acting === undefined ? {} : { account: acting };
  if (!auth) return { ...ip, ...account };
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
  if (!bearer) throw new GameError('UNAUTHENTICATED', 'Authorization must be "Bearer <token>"');
  return { token: bearer, tokenHash: tokenHashOf(req, bearer), ...ip, ...account };
}

/**
 * The credential of a public read, which answers in the caller's pool: one that cannot be read (a
 * scheme other than Bearer) reads as anonymous there, as public reads always did.
 */
export function readerCredentialOf(req: Request): Credential | undefined {
  try {
    return credentialOf(req);
  } catch {
    return undefined;
  }
}

/** The Idempotency-Key header of a create, if any (the service checks its form). */
export function idempotencyKeyOf(req: Request): { idempotencyKey?: string } {
  const key = req.headers['idempotency-key'];
  return typeof key === 'string' ? { idempotencyKey: key } : {};
}

/** The OpenAPI header of a create that honours Idempotency-Key. */
export const idempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .openapi({
      description:
        'A retry with the same key (1–128 of A-Z a-z 0-9 . _ : -) answers the first answer and creates ' +
        'nothing more, for 24 h; the same key with another body is refused with IDEMPOTENCY_KEY_REUSED',
    }),
});

/**
 * OpenAPI security requirement: an account API token with any one of `scopes` (alternatives;
 * none given: any token of the account).
 */
export function apiToken(...scopes: TokenScope[]): Security {
  return scopes.length === 0 ? [{ apiToken: [] }] : scopes.map((scope) => ({ apiToken: [scope] }));
}

/** OpenAPI security requirement of a seat action: the seat token, or the seat's account token. */
export const seatSecurity: Security = [{ seatToken: [] }, ...apiToken('game:play', 'bot:play')];

/** OpenAPI security requirement of an app's own operation: an app key (bha_…) with any one of `scopes`. */
export function appKey(...scopes: AppKeyScope[]): Security {
  return scopes.length === 0 ? [{ appKey: [] }] : scopes.map((scope) => ({ appKey: [scope] }));
}

/** OpenAPI security requirement of the operator API: the operator key (OPERATOR_KEY). */
export const operatorKey: Security = [{ operatorKey: [] }];
