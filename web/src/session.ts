// The account a person plays as in this browser: a personal API token (bhp_…) kept in the browser's
// storage (never in a URL), with the account it belongs to. Game pages act for the account's seat.

export interface StoredAccount {
  /** The personal API token. */
  readonly token: string;
  /** The account id (the username in lower case), as games' seats name it. */
  readonly id: string;
  readonly username: string;
}

export const ACCOUNT_STORAGE_KEY = 'boardhost.account';

export function loadAccount(): StoredAccount | undefined {
  try {
    const raw = window.localStorage.getItem(ACCOUNT_STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<StoredAccount>;
    if (typeof parsed.token !== 'string' || typeof parsed.id !== 'string') return undefined;
    return { token: parsed.token, id: parsed.id, username: parsed.username ?? parsed.id };
  } catch {
    return undefined; // storage disabled or a value this page did not write
  }
}

export function saveAccount(account: StoredAccount): void {
  window.localStorage.setItem(ACCOUNT_STORAGE_KEY, JSON.stringify(account));
}

export function clearAccount(): void {
  window.localStorage.removeItem(ACCOUNT_STORAGE_KEY);
}
