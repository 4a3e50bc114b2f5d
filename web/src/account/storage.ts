// The browser's account: a personal API token (bhp_…) kept in localStorage, never sent anywhere but
// this server's API in an Authorization header. The game page reads it too, to act as the account
// in account games (seat-token games carry their seat in the URL fragment instead).

const TOKEN_KEY = 'boardhost.account.token';
const SEEKS_KEY = 'boardhost.account.seeks';

export function accountToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // storage disabled: no account
  }
}

export function rememberAccountToken(token: string): void {
  window.localStorage.setItem(TOKEN_KEY, token);
  window.dispatchEvent(new Event('boardhost-account'));
}

/** Forget the token and everything kept for it (it stays valid on the server until revoked). */
export function forgetAccountToken(): void {
  window.localStorage.removeItem(TOKEN_KEY);
  window.localStorage.removeItem(SEEKS_KEY);
  window.dispatchEvent(new Event('boardhost-account'));
}

/** A seek this browser created (the API has no route listing one's seeks). */
export interface KeptSeek {
  readonly id: string;
  readonly kind: string;
  readonly expiresAt: string;
}

export function keptSeeks(): KeptSeek[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(SEEKS_KEY) ?? '[]');
    const now = Date.now();
    return Array.isArray(parsed)
      ? (parsed as KeptSeek[]).filter((s) => typeof s?.id === 'string' && Date.parse(s.expiresAt) > now)
      : [];
  } catch {
    return [];
  }
}

export function keepSeek(seek: KeptSeek): void {
  window.localStorage.setItem(
    SEEKS_KEY,
    JSON.stringify([seek, ...keptSeeks().filter((s) => s.id !== seek.id)]),
  );
}

export function dropSeek(id: string): void {
  window.localStorage.setItem(SEEKS_KEY, JSON.stringify(keptSeeks().filter((s) => s.id !== id)));
}
