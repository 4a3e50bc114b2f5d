import type { Services } from '../../service';

/** What every resolver gets: the services, and the caller's bearer token if any. */
export interface GraphQLContext {
  readonly services: Services;
  readonly bearerToken?: string;
}

/** The token from an `Authorization: Bearer <token>` header value. */
export function bearerFrom(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
