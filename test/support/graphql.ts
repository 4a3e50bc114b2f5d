// GraphQL helpers for account tests: requests with a bearer token, and the account event feed over
// graphql-ws with the token in the connection_init payload.
import type { Client } from 'graphql-ws';
import { gql, wsClient } from './app';

/** Every field of a feed event. */
export const EVENT_FIELDS = 'seq type at data';

export interface FeedEvent {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly data: Record<string, any>;
}

/** A GraphQL request as the holder of `token` (none: anonymous); fails the test on HTTP errors. */
export async function gqlAs(
  url: string,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ data?: Record<string, any>; errors?: Array<Record<string, any>> }> {
  const { body } = await gql(url, query, variables, token ? { authorization: `Bearer ${token}` } : {});
  return body;
}

/** The data of a request that must succeed. */
export async function ok(
  url: string,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const body = await gqlAs(url, token, query, variables);
  expect(body.errors).toBeUndefined();
  return body.data as Record<string, any>;
}

/** The first error of a request that must fail: its extensions (with `code`) and message. */
export async function failure(
  url: string,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Record<string, any> & { code: string; message: string }> {
  const body = await gqlAs(url, token, query, variables);
  expect(body.errors?.length).toBeGreaterThan(0);
  const error = body.errors?.[0] ?? {};
  return { ...error.extensions, message: error.message };
}

/** The account feed subscription, as an async iterator of events (errors throw). */
export interface FeedSubscription {
  next(): Promise<FeedEvent>;
  /** Stops the subscription and closes the connection. */
  close(): Promise<void>;
}

/** Subscribes to `events(after:)` with `token` in connection_init (none: no payload). */
export function subscribeEvents(url: string, token: string | undefined, after?: number): FeedSubscription {
  const client: Client = wsClient(url, token ? { authorization: `Bearer ${token}` } : undefined);
  const iterator = client.iterate<{ events: FeedEvent }>({
    query: `subscription ($after: Int) { events(after: $after) { ${EVENT_FIELDS} } }`,
    variables: after === undefined ? {} : { after },
  });
  return {
    async next() {
      const result = await iterator.next();
      if (result.done) throw new Error('the events subscription completed');
      if (result.value.errors) throw subscriptionError(result.value.errors);
      return result.value.data!.events;
    },
    async close() {
      await iterator.return?.();
      await client.dispose();
    },
  };
}

/** An error whose `code` is the first GraphQL error's extensions.code. */
export class SubscriptionError extends Error {
  constructor(
    message: string,
    readonly code: unknown,
    readonly extensions: Record<string, unknown>,
  ) {
    super(message);
  }
}

function subscriptionError(errors: ReadonlyArray<{ message: string; extensions?: any }>): SubscriptionError {
  const first = errors[0];
  return new SubscriptionError(first?.message ?? 'error', first?.extensions?.code, first?.extensions ?? {});
}

/**
 * How a subscription ends when it fails: the server's errors (a `next` with errors before any event,
 * or an `error` message mid-stream) as a SubscriptionError.
 */
export async function subscriptionFailure(promise: Promise<unknown>): Promise<SubscriptionError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SubscriptionError) return error;
    if (Array.isArray(error)) return subscriptionError(error);
    throw error;
  }
  throw new Error('the subscription did not fail');
}
