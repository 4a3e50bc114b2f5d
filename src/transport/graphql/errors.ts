import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Response } from 'express';
import { GameError, RETRY_AFTER_SECONDS, toGameError } from '../../service/errors';
import { isTokenLimitError, tokenLimitError } from './limits';

/** Apollo's own codes for request errors, passed through unchanged. */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

/** GameError → `extensions.code` (plus its details); anything unexpected → INTERNAL, message hidden. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  // The parser's token limit (Apollo's parseOptions) is a limit, not a syntax error.
  const parseError = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (isTokenLimitError(parseError)) {
    const limited = tokenLimitError(parseError);
    return { message: limited.message, extensions: limited.extensions };
  }
  const original = unwrapError(error);
  const code = formatted.extensions?.code;
  if (!(original instanceof GameError) && typeof code === 'string' && REQUEST_ERROR_CODES.has(code)) {
    return formatted;
  }
  // Parse and validation errors (depth, cost, unknown fields) carry no resolver error.
  if (error instanceof GraphQLError && !error.originalError) {
    return {
      ...formatted,
      extensions: { ...formatted.extensions, code: code ?? 'GRAPHQL_VALIDATION_FAILED' },
    };
  }
  if (!(original instanceof GameError) && original && isValidationError(original)) {
    return { ...formatted, extensions: { code: 'INVALID_INPUT' } };
  }
  const gameError = toGameError(original);
  return {
    message: gameError.message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { ...gameError.details, code: gameError.code },
  };
}

/**
 * The error a resolver or a subscription's source threw. graphql-ws wraps an error thrown by a
 * subscription's iterator mid-stream in a GraphQLError without a path, which Apollo's
 * unwrapResolverError leaves wrapped.
 */
function unwrapError(error: unknown): unknown {
  const unwrapped = unwrapResolverError(error);
  if (unwrapped instanceof GraphQLError && unwrapped.originalError instanceof GameError) {
    return unwrapped.originalError;
  }
  return unwrapped;
}

/** Argument coercion failures (type-graphql / graphql-js) that reach resolvers as plain errors. */
function isValidationError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ArgumentValidationError';
}

/** A GameError raised before GraphQL runs (rate limits, store outage), as a GraphQL response. */
export function sendGraphQLError(res: Response, error: GameError): void {
  if (error.code === 'STORE_UNAVAILABLE') res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res
    .status(error.status)
    .json({ errors: [{ message: error.message, extensions: { ...error.details, code: error.code } }] });
}
