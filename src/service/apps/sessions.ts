import { randomBytes } from 'node:crypto';
import {
  TOKEN_SCOPES,
  type AccountKind,
  type Storage,
  type StoredAccount,
  type StoredApp,
  type StoredSession,
  type StoredToken,
  type TokenScope,
} from '../../store/store';
import {
  accountScopesOf,
  hashToken,
  newPersonalToken,
  newRefreshToken,
  refuseBanned,
  type Authenticator,
  type Credential,
} from '../accounts/auth';
import { checkText } from '../accounts/names';
import { GameError } from '../errors';

// Sessions: an app's backend mints, for one of its accounts, a short-lived access token (an ordinary
// `bhp_` token of the account naming the session, so every token path works) and a refresh token
// (`bhr_`) that the app's client trades for a new pair. Rotation: each refresh token works once; a
// used one coming back means it was copied, so the whole session is revoked. Revoking the session,
// or the key that minted it, ends its tokens and their streams at once (see token-streams.ts).

/** Active sessions (not revoked, refresh token not expired) one account may hold; the next is refused. */
export const MAX_SESSIONS_PER_ACCOUNT = 20;

const REFRESH_PREFIX = 'bhr_';
const LABEL_MAX = 60;
const DEFAULT_LABEL = 'session';

/** Why a refresh token was refused (INVALID_REFRESH_TOKEN `reason`). */
export type RefreshRefusal = 'unknown' | 'revoked' | 'expired' | 'reused';

export interface SessionView {
  readonly id: string;
  readonly app: string;
  /** The account's id. */
  readonly account: string;
  /** The id of the app key that minted it (revoking that key ends it). */
  readonly key: string;
  readonly label: string;
  readonly scopes: readonly TokenScope[];
  /** How many times it was refreshed (0: as minted). */
  readonly generation: number;
  readonly createdAt: string;
  /** When its current refresh token stops working (each refresh starts a new refreshSeconds). */
  readonly expiresAt: string;
  readonly revokedAt: string | null;
  /** Neither revoked nor expired, and its key not revoked. */
  readonly active: boolean;
}

/** A session with its secrets (only in the answer to mint and refresh). */
export interface IssuedSession {
  readonly session: SessionView;
  /** `bhp_…`: the bearer token of the account, until accessTokenExpiresAt. */
  readonly accessToken: string;
  readonly accessTokenExpiresAt: string;
  /** `bhr_…`: single use, for POST /sessions/refresh. */
  readonly refreshToken: string;
  readonly refreshTokenExpiresAt: string;
}

/** The account scopes each kind of account can use (bot:play is for bots, game:play for people). */
const FITS: Record<AccountKind, (scope: TokenScope) => boolean> = {
  human: (scope) => scope !== 'bot:play',
  bot: (scope) => scope !== 'game:play',
};

export class SessionService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * A new session for the app's account `externalId`, with `scopes` (default: every account scope of
   * the key that fits the account's kind). Needs an app key with app:sessions.
   */
  async mint(
    credential: Credential,
    externalId: string,
    input: { scopes?: readonly string[]; label?: string } = {},
  ): Promise<IssuedSession> {
    const { app, key } = await this.auth.requireApp(credential, 'app:sessions');
    const account = await this.accountOf(app.id, externalId);
    refuseBanned(account);
    const scopes = sessionScopes(account, accountScopesOf(key.scopes), input.scopes);
    const label = sessionLabel(input.label);
    const now = this.now();
    const live = await this.liveKeys(app.id);
    const active = (await this.storage.apps.listSessions(account.id)).filter((s) => isActive(s, now, live));
    if (active.length >= MAX_SESSIONS_PER_ACCOUNT) {
      throw new GameError(
        'APP_LIMIT_REACHED',
        `The account has ${MAX_SESSIONS_PER_ACCOUNT} active sessions; revoke one first`,
        { what: 'sessions', max: MAX_SESSIONS_PER_ACCOUNT },
      );
    }
    const refresh = newRefreshToken();
    const id = `ses_${randomBytes(8).toString('hex')}`;
    const expiresAt = new Date(now.getTime() + app.settings.refreshSeconds * 1000).toISOString();
    const access = this.accessToken(app, { key: key.id, id, account: account.id, scopes, label }, expiresAt);
    const session: StoredSession = {
      id,
      app: app.id,
      account: account.id,
      key: key.id,
      scopes,
      label,
      refreshHash: refresh.hash,
      accessToken: access.stored.id,
      generation: 0,
      createdAt: now.toISOString(),
      expiresAt,
      revokedAt: null,
    };
    await this.storage.apps.createSession(session, access.stored);
    return issued(session, access, refresh.token, now);
  }

  /**
   * Trades a refresh token for a new access token and refresh token (the old ones stop working). A
   * refresh token used before revokes the session (INVALID_REFRESH_TOKEN reason reused), and so does
   * the second of two refreshes racing with one token: only one of them can be the owner.
   */
  async refresh(refreshToken: string): Promise<IssuedSession> {
    if (typeof refreshToken !== 'string' || !refreshToken.startsWith(REFRESH_PREFIX)) {
      throw refused('unknown');
    }
    const hash = hashToken(refreshToken);
    const found = await this.storage.apps.sessionByRefreshHash(hash);
    if (!found) throw refused('unknown');
    const { session, current } = found;
    if (session.revokedAt !== null) throw refused('revoked');
    const now = this.now();
    if (!current) return this.reused(session, now);
    if (Date.parse(session.expiresAt) <= now.getTime()) throw refused('expired');
    const [key, app, account] = await Promise.all([
      this.storage.apps.getKey(session.app, session.key),
      this.storage.apps.getApp(session.app),
      this.storage.accounts.getAccount(session.account),
    ]);
    if (!key || key.revokedAt !== null || !app || app.disabledAt || !account) throw refused('revoked');
    refuseBanned(account);
    const refresh = newRefreshToken();
    const expiresAt = new Date(now.getTime() + app.settings.refreshSeconds * 1000).toISOString();
    const label = session.label ?? DEFAULT_LABEL;
    const access = this.accessToken(
      app,
      { key: key.id, id: session.id, account: account.id, scopes: session.scopes, label },
      expiresAt,
    );
    const next: StoredSession = {
      ...session,
      refreshHash: refresh.hash,
      accessToken: access.stored.id,
      generation: session.generation + 1,
      expiresAt,
    };
    if (!(await this.storage.apps.rotateSession(next, hash, access.stored))) {
      // Another refresh with this token won (or the session was revoked meanwhile).
      const latest = await this.storage.apps.getSession(session.app, session.id);
      if (latest?.revokedAt) throw refused('revoked');
      return this.reused(session, now);
    }
    return issued(next, access, refresh.token, now);
  }

  /** The sessions of the app's account `externalId`, oldest first (ended ones too). Needs app:sessions. */
  async list(credential: Credential, externalId: string): Promise<SessionView[]> {
    const { app } = await this.auth.requireApp(credential, 'app:sessions');
    const account = await this.accountOf(app.id, externalId);
    const now = this.now();
    const live = await this.liveKeys(app.id);
    return (await this.storage.apps.listSessions(account.id)).map((s) => sessionView(s, now, live));
  }

  /** Revokes one of the app's sessions (idempotent): its tokens and their streams end at once. */
  async revoke(credential: Credential, sessionId: string): Promise<SessionView> {
    const { app } = await this.auth.requireApp(credential, 'app:sessions');
    return this.revokeOf(app.id, sessionId);
  }

  /** A session token signs out: its session is revoked. Any other credential: INVALID_INPUT. */
  async signOut(credential: Credential): Promise<SessionView> {
    const caller = await this.auth.identify(credential);
    const session = caller.kind === 'account' ? caller.via?.session : undefined;
    if (caller.kind !== 'account' || !caller.via || session === undefined) {
      throw new GameError(
        'INVALID_INPUT',
        'Only a session token signs out (its session ends); revoke other API tokens by id',
      );
    }
    return this.revokeOf(caller.via.app.id, session);
  }

  private async revokeOf(app: string, sessionId: string): Promise<SessionView> {
    const now = this.now();
    const revoked = await this.storage.apps.revokeSession(app, sessionId, now.toISOString());
    if (!revoked) throw new GameError('SESSION_NOT_FOUND', `The app has no session ${sessionId}`);
    return sessionView(revoked, now);
  }

  /** A used refresh token came back: the session is revoked (whoever holds its tokens now). */
  private async reused(session: StoredSession, now: Date): Promise<never> {
    await this.storage.apps.revokeSession(session.app, session.id, now.toISOString());
    throw refused('reused');
  }

  /** The ids of the app's keys that are not revoked (a revoked key's sessions are over). */
  private async liveKeys(app: string): Promise<ReadonlySet<string>> {
    const keys = await this.storage.apps.listKeys(app);
    return new Set(keys.filter((k) => k.revokedAt === null).map((k) => k.id));
  }

  private async accountOf(app: string, externalId: string): Promise<StoredAccount> {
    const account = await this.storage.accounts.accountByExternalId(app, externalId);
    if (!account) throw new GameError('ACCOUNT_NOT_FOUND', `The app has no account ${externalId}`);
    return account;
  }

  /** The access token of a session: it lives sessionSeconds, never past the refresh token. */
  private accessToken(
    app: StoredApp,
    s: { key: string; id: string; account: string; scopes: readonly TokenScope[]; label: string },
    refreshExpiresAt: string,
  ): { token: string; stored: StoredToken } {
    const now = this.now();
    const { token, hash } = newPersonalToken();
    const ends = Math.min(now.getTime() + app.settings.sessionSeconds * 1000, Date.parse(refreshExpiresAt));
    const stored: StoredToken = {
      id: randomBytes(8).toString('base64url'),
      account: s.account,
      hash,
      scopes: s.scopes,
      label: s.label,
      createdAt: now.toISOString(),
      revokedAt: null,
      expiresAt: new Date(ends).toISOString(),
      session: { app: app.id, key: s.key, id: s.id },
    };
    return { token, stored };
  }
}

/** `live`: the ids of the app's keys not revoked, when known (a revoked key's sessions are not active). */
export function sessionView(session: StoredSession, now: Date, live?: ReadonlySet<string>): SessionView {
  return {
    id: session.id,
    app: session.app,
    account: session.account,
    key: session.key,
    label: session.label ?? DEFAULT_LABEL,
    scopes: session.scopes,
    generation: session.generation,
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    revokedAt: session.revokedAt,
    active: isActive(session, now, live),
  };
}

function isActive(session: StoredSession, now: Date, live?: ReadonlySet<string>): boolean {
  return (
    session.revokedAt === null &&
    Date.parse(session.expiresAt) > now.getTime() &&
    (live === undefined || live.has(session.key))
  );
}

function issued(
  session: StoredSession,
  access: { token: string; stored: StoredToken },
  refreshToken: string,
  now: Date,
): IssuedSession {
  return {
    session: sessionView(session, now),
    accessToken: access.token,
    accessTokenExpiresAt: access.stored.expiresAt as string,
    refreshToken,
    refreshTokenExpiresAt: session.expiresAt,
  };
}

/** The scopes asked for, checked: known, fitting the account's kind, among the key's; default all that fit. */
function sessionScopes(
  account: StoredAccount,
  keyScopes: readonly TokenScope[],
  asked: readonly string[] | undefined,
): TokenScope[] {
  const fits = FITS[account.kind];
  if (asked === undefined) {
    const scopes = keyScopes.filter(fits);
    if (scopes.length === 0) {
      throw new GameError('MISSING_SCOPE', 'The app key lends no account scope that fits this account', {
        required: TOKEN_SCOPES.filter(fits),
        granted: keyScopes,
      });
    }
    return scopes;
  }
  const unknown = asked.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
  if (asked.length === 0 || unknown.length > 0) {
    throw new GameError('INVALID_INPUT', `scopes must be some of ${TOKEN_SCOPES.join(', ')}`, {
      field: 'scopes',
    });
  }
  const scopes = [...new Set(asked as TokenScope[])];
  const unfit = scopes.filter((s) => !fits(s));
  if (unfit.length > 0) {
    throw new GameError(
      'INVALID_INPUT',
      `A ${account.kind} account’s session cannot hold ${unfit.join(', ')} (bot:play is for bots, game:play for people)`,
      { field: 'scopes' },
    );
  }
  const missing = scopes.filter((s) => !keyScopes.includes(s));
  if (missing.length > 0) {
    throw new GameError(
      'MISSING_SCOPE',
      `A session holds only scopes of the key that mints it (missing: ${missing.join(', ')})`,
      { required: scopes, granted: keyScopes },
    );
  }
  return scopes;
}

function sessionLabel(label: string | undefined): string {
  if (label === undefined) return DEFAULT_LABEL;
  const trimmed = checkText('label', label).trim();
  if (trimmed.length < 1 || trimmed.length > LABEL_MAX) {
    throw new GameError('INVALID_INPUT', `label must be 1–${LABEL_MAX} characters`, { field: 'label' });
  }
  return trimmed;
}

function refused(reason: RefreshRefusal): GameError {
  const why: Record<RefreshRefusal, string> = {
    unknown: 'This refresh token is unknown',
    revoked: 'The session of this refresh token was revoked',
    expired: 'This refresh token expired',
    reused: 'This refresh token was used before: the session is revoked',
  };
  return new GameError('INVALID_REFRESH_TOKEN', `${why[reason]}; sign the user in again`, { reason });
}
