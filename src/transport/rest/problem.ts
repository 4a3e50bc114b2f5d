import type { ErrorRequestHandler, Response } from 'express';
import type { ZodError } from 'zod';
import { GameError, RETRY_AFTER_SECONDS, toGameError } from '../../service/errors';

/** The stable `type` URI of a problem code: urn:boardhost:problem:illegal-move. */
export function problemType(code: string): string {
  return `urn:boardhost:problem:${code.toLowerCase().replace(/_/g, '-')}`;
}

/** The members RFC 9457 defines, plus our `code`: error details never overwrite them. */
const RESERVED = new Set(['type', 'title', 'status', 'detail', 'instance', 'code']);

/**
 * The error's details as problem members. A detail named like a reserved member is renamed after
 * the code's subject: CHALLENGE_CLOSED's `status` (open, declined…) becomes `challengeStatus`, so
 * that it neither hides nor is hidden by the HTTP status.
 */
export function problemDetails(error: GameError): Record<string, unknown> {
  const subject = error.code.split('_')[0]?.toLowerCase() ?? 'error';
  return Object.fromEntries(
    Object.entries(error.details).map(([key, value]) =>
      RESERVED.has(key) ? [`${subject}${key[0]?.toUpperCase()}${key.slice(1)}`, value] : [key, value],
    ),
  );
}

/** A GameError as an RFC 9457 problem document. */
export function problemBody(error: GameError): Record<string, unknown> {
  return {
    ...problemDetails(error),
    type: problemType(error.code),
    title: error.code
      .toLowerCase()
      .replace(/_/g, ' ')
      .replace(/^./, (c) => c.toUpperCase()),
    status: error.status,
    detail: error.message,
    code: error.code,
  };
}

/** Writes a GameError as RFC 9457 application/problem+json. */
export function sendProblem(res: Response, error: GameError): void {
  if (error.code === 'STORE_UNAVAILABLE') res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  const waits = [
    'QUOTA_EXCEEDED',
    'RATE_LIMITED',
    'TOO_MANY_ANALYSES',
    'AI_BUSY',
    'TOO_MANY_STREAMS',
  ].includes(error.code);
  if (waits && typeof error.details.retryAfterSeconds === 'number') {
    res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
  }
  res
    .status(error.status)
    .type('application/problem+json')
    .send(JSON.stringify(problemBody(error)));
}

/** An INVALID_INPUT error listing each field zod rejected. */
export function invalidInput(where: string, error: ZodError): GameError {
  const issues = error.issues.map((i) => ({
    path: [where, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new GameError('INVALID_INPUT', `Invalid request: ${summary}`, { issues });
}

/**
 * The body parser's refusals as GameErrors: 413 (too large) and 415 (a charset or encoding it
 * cannot read) keep their status, anything else it rejects (unparsable JSON…) is INVALID_INPUT.
 */
function bodyParserError(error: unknown): GameError | undefined {
  const status = (error as { status?: unknown }).status;
  if (error instanceof GameError || typeof status !== 'number' || status < 400 || status >= 500) {
    return undefined;
  }
  const message = (error as Error).message;
  if (status === 413) return new GameError('PAYLOAD_TOO_LARGE', `Request body too large: ${message}`);
  if (status === 415) return new GameError('UNSUPPORTED_MEDIA_TYPE', `Unsupported request body: ${message}`);
  return new GameError('INVALID_INPUT', `Malformed request body: ${message}`);
}

/** The last middleware: every error becomes a problem document. */
export function problemHandler(log: (error: unknown) => void): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    const parserError = bodyParserError(error);
    if (parserError) return sendProblem(res, parserError);
    const gameError = toGameError(error);
    if (gameError.code === 'INTERNAL') log(error);
    sendProblem(res, gameError);
  };
}
