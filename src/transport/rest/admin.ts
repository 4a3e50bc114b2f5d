import type { Request } from 'express';
import { isOperatorKey } from '../../service/apps/service';
import { GameError } from '../../service/errors';
import { bearerOf } from '../rate-limit';

// The operator's check, for every route under /api/v1/admin: `Authorization: Bearer <OPERATOR_KEY>`.
// The key is the surface's setting, kept on the express app (`app.locals`) so that any route table
// can check it without being handed it.

/** Where the surface keeps the configured operator key (express `app.locals`). */
export const OPERATOR_KEY_LOCAL = 'boardhostOperatorKey';

/**
 * Refuses (403 OPERATOR_ONLY) a request that does not carry the operator key; every request when
 * none is configured (the operator API is off). Constant time in the key (isOperatorKey).
 */
export function requireOperator(req: Request): void {
  const configured = (req.app.locals as Record<string, unknown>)[OPERATOR_KEY_LOCAL];
  const operatorKey = typeof configured === 'string' && configured !== '' ? configured : undefined;
  if (!operatorKey) {
    throw new GameError('OPERATOR_ONLY', 'The operator API is off on this server (no OPERATOR_KEY is set)');
  }
  if (!isOperatorKey(bearerOf(req), operatorKey)) {
    throw new GameError('OPERATOR_ONLY', 'The operator API needs Authorization: Bearer <OPERATOR_KEY>');
  }
}
