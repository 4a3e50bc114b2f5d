import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Credential } from '../../service/auth';
import { GameError } from '../../service/errors';
import type { TokenScope } from '../../store/store';
import { invalidInput } from './problem';
import * as S from './schemas';

// What every REST route table shares: the route shape, OpenAPI response helpers, input parsing and
// the one place that reads `Authorization: Bearer <token>`.

/** One REST route: its OpenAPI description and its handler, side by side so they cannot drift. */
export interface RestRoute {
  readonly spec: RouteConfig;
  readonly handle: (req: Request, res: Response) => Promise<void>;
}

/** An application/json response. */
export const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** application/problem+json responses for each status. */
export const problems = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      s,
      { description: 'Problem', content: { 'application/problem+json': { schema: S.Problem } } },
    ]),
  );

/** Validates `value` (an absent body counts as `{}`); INVALID_INPUT lists each rejected field. */
export function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw invalidInput(where, parsed.error);
  return parsed.data;
}

/**
 * The bearer secret of a request: a seat token (bhs_…) or a personal API token (bhp_…); the
 * service decides what it may do. No Authorization header is no credential; any other scheme is
 * refused.
 */
export function credentialOf(req: Request): Credential {
  const auth = req.headers.authorization;
  const ip = req.ip ? { ip: req.ip } : {};
  if (!auth) return ip;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
  if (!bearer) throw new GameError('UNAUTHENTICATED', 'Authorization must be "Bearer <token>"');
  return { token: bearer, ...ip };
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
export function apiToken(...scopes: TokenScope[]): Array<Record<string, string[]>> {
  return scopes.length === 0 ? [{ apiToken: [] }] : scopes.map((scope) => ({ apiToken: [scope] }));
}

/** OpenAPI security requirement of a seat action: the seat token, or the seat's account token. */
export const seatSecurity = [{ seatToken: [] }, ...apiToken('game:play', 'bot:play')];
