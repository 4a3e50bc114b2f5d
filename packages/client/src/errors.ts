// Refusals as typed errors: every 4xx/5xx of the API is an application/problem+json body whose
// `code` is stable (the same as GraphQL extensions.code); BoardhostError carries it.
import type { components } from './generated/openapi';

export type Problem = components['schemas']['Problem'];
export type ErrorCode = Problem['code'];

export class BoardhostError extends Error {
  override readonly name = 'BoardhostError';
  /** The stable error code (`VERSION_CONFLICT`, `ILLEGAL_MOVE`…). */
  readonly code: ErrorCode;
  /** The HTTP status. */
  readonly status: number;
  /** The whole problem+json body, with the error's details (currentVersion, epoch, after…). */
  readonly problem: Problem & Record<string, unknown>;

  constructor(problem: Problem & Record<string, unknown>) {
    super(`${problem.code}: ${problem.detail}`);
    this.code = problem.code;
    this.status = problem.status;
    this.problem = problem;
  }
}

/** True when `error` is a BoardhostError, with one of `codes` if any are given. */
export function isBoardhostError(error: unknown, ...codes: ErrorCode[]): error is BoardhostError {
  return error instanceof BoardhostError && (codes.length === 0 || codes.includes(error.code));
}

/** A BoardhostError from a response that is not ok (a body that is not a problem becomes INTERNAL). */
export function toError(error: unknown, response: Response): BoardhostError {
  const body = error as Partial<Problem> | undefined;
  if (body && typeof body === 'object' && typeof body.code === 'string') {
    return new BoardhostError({ ...(body as Problem), status: body.status ?? response.status });
  }
  return new BoardhostError({
    type: 'about:blank',
    title: response.statusText,
    status: response.status,
    code: 'INTERNAL',
    detail: `HTTP ${response.status} without a problem body`,
  });
}
