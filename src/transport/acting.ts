import { GameError } from '../service/errors';

// An app key acts for one of its app's accounts when the request names it: the `Boardhost-Account`
// header over HTTP (REST, GraphQL), the `boardhostAccount` connection parameter over graphql-ws.

/** The header naming the account an app key acts for (lower case, as node gives headers). */
export const ACCOUNT_HEADER = 'boardhost-account';

/** The graphql-ws connection parameter naming the account an app key acts for. */
export const ACCOUNT_PARAM = 'boardhostAccount';

/** The account id of a `Boardhost-Account` header value (absent: none; more than one: refused). */
export function actingAccountOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 100) {
    throw new GameError('INVALID_INPUT', 'Boardhost-Account must name one account id', {
      field: 'Boardhost-Account',
    });
  }
  return value.trim();
}
