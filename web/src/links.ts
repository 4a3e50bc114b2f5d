// The playground's own links. A seat link carries the seat token in the fragment, which browsers
// never send to a server (so no log holds it): /play/<id>#seat=<token>&side=<seat number>.

export function gameLink(id: string): string {
  return `/play/${encodeURIComponent(id)}`;
}

export function seatLink(id: string, seat: number, token: string): string {
  return `${gameLink(id)}#seat=${encodeURIComponent(token)}&side=${seat}`;
}

/** The seat a page acts for, read from its fragment; undefined for a spectator. */
export function seatFromHash(hash: string): { token: string; seat: number } | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('seat');
  const seat = Number(params.get('side') ?? '0');
  if (!token || !(seat === 0 || seat === 1)) return undefined;
  return { token, seat };
}
