// The playground's own links. A seat link carries the seat token in the fragment, which browsers
// never send to a server (so no log holds it): /play/<id>#seat=<token>&side=<seat number>.
// An account's game is opened with /play/<id>#account&side=<seat>: the page acts with the account
// token this browser keeps (account/storage.ts), so the long-lived token is never in a URL.
import { accountToken } from './account/storage';

export function gameLink(id: string): string {
  return `/play/${encodeURIComponent(id)}`;
}

export function seatLink(id: string, seat: number, token: string): string {
  return `${gameLink(id)}#seat=${encodeURIComponent(token)}&side=${seat}`;
}

/** A game of the browser's account, played as `seat` with the account's token. */
export function accountSeatLink(id: string, seat: number): string {
  return `${gameLink(id)}#account&side=${seat}`;
}

/** The seat a page acts for, read from its fragment; undefined for a spectator. */
export function seatFromHash(hash: string): { token: string; seat: number } | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('seat') ?? (params.has('account') ? accountToken() : null);
  const seat = Number(params.get('side') ?? '0');
  if (!token || !(seat === 0 || seat === 1)) return undefined;
  return { token, seat };
}
