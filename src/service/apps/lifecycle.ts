import { other } from '../../engines/types';
import { appOf, OPEN_APP, type Storage, type StoredAccount, type StoredGame } from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import type { ChallengeService } from '../challenges/service';
import { GameError } from '../errors';
import { checkText } from '../accounts/names';
import { actingMarker } from '../accounts/token-streams';
import { finish } from '../game/decide';
import type { GameService } from '../game/service';
import { timed, vacationsOf } from '../game/timing';
import { WRITE_ATTEMPTS } from '../game/writer';
import { eraseAccount } from './erase';
import { exportAccount, type AccountExport } from './export';

// An account's life after sign-up, decided by its app (its own accounts, by external id, with a key
// holding app:moderate) or by the operator (any account, by id): suspend (no new games, challenges,
// seeks, bulk pairings or tournament entries: accounts/restricted.ts; ongoing games go on), ban
// (every credential refused: accounts/auth.ts; tokens and sessions revoked, streams closed; ongoing
// games lost by forfeit, reason `banned`), erase (./erase.ts) and export (./export.ts).

/** Who names the account: its app (a key, the app's external id) or the operator (the account id). */
export type LifecycleTarget =
  | { readonly credential: Credential; readonly externalId: string }
  /** The transport has checked the operator key (OPERATOR_KEY) before it names this target. */
  | { readonly operator: true; readonly accountId: string };

/** An account's moderation state, as the app and the operator see it. */
export interface AccountStatusView {
  readonly id: string;
  readonly app: string;
  readonly externalId: string | null;
  readonly username: string;
  readonly displayName: string | null;
  readonly kind: StoredAccount['kind'];
  readonly status: NonNullable<StoredAccount['status']>;
  readonly statusReason: string | null;
  readonly createdAt: string;
}

/** A reason is free text shown to the account (ACCOUNT_RESTRICTED): 1–200 characters. */
const REASON_MAX = 200;

export class LifecycleService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly challenges: ChallengeService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** No new games, challenges, seeks or entries; its ongoing games go on. A banned account stays banned. */
  async suspend(target: LifecycleTarget, reason?: string): Promise<AccountStatusView> {
    const account = await this.target(target);
    if (account.status === 'banned') throw alreadyBanned(account);
    return this.setStatus(account, 'suspended', reasonOf(reason));
  }

  async unsuspend(target: LifecycleTarget): Promise<AccountStatusView> {
    const account = await this.target(target);
    if (account.status === 'banned') throw alreadyBanned(account);
    return this.setStatus(account, 'active', undefined);
  }

  /**
   * Every credential refused from the moment the status is stored; then its tokens and sessions
   * revoked (each published on the revocation bus: its streams close on every node), its open
   * challenges closed and its ongoing games lost by forfeit (reason `banned`). A retried ban
   * finishes what a failed one left.
   */
  async ban(target: LifecycleTarget, reason?: string): Promise<AccountStatusView> {
    const account = await this.target(target);
    const view = await this.setStatus(account, 'banned', reasonOf(reason) ?? account.statusReason);
    await this.shutOut(account.id);
    return view;
  }

  /** Back to active; its revoked tokens stay revoked (the app mints new sessions). */
  async unban(target: LifecycleTarget): Promise<AccountStatusView> {
    const account = await this.target(target);
    return this.setStatus(account, 'active', undefined);
  }

  /**
   * Removes the account's personal data (./erase.ts); afterwards every route answers ACCOUNT_NOT_FOUND
   * for it. Open accounts are refused: their id is their username (see erase.ts).
   */
  async erase(target: LifecycleTarget): Promise<{ readonly id: string; readonly name: string }> {
    const account = await this.target(target);
    if (appOf(account) === OPEN_APP) {
      throw new GameError(
        'FORBIDDEN',
        `${account.id} is an open account: its id is its username, kept in every game, rating and ` +
          'index that names it, so it cannot be erased; ban it instead (its games and ratings stay)',
        { account: account.id, reason: 'open-account' },
      );
    }
    // Banned first: no credential works and nothing new starts while the rest is removed.
    await this.setStatus(account, 'banned', account.statusReason);
    await this.shutOut(account.id);
    return eraseAccount(this.storage, account, this.now());
  }

  /** Every datum of the account, one JSON document (./export.ts). */
  async export(target: LifecycleTarget): Promise<AccountExport> {
    return exportAccount(this.storage, this.games, await this.target(target), this.now());
  }

  /** The account the target names: ACCOUNT_NOT_FOUND for none (erased ones included) or another app's. */
  private async target(target: LifecycleTarget): Promise<StoredAccount> {
    if ('operator' in target) {
      const account = await this.storage.accounts.getAccount(target.accountId);
      if (!account) throw notFound(target.accountId);
      return account;
    }
    const { app } = await this.auth.requireApp(target.credential, 'app:moderate');
    const account = await this.storage.accounts.accountByExternalId(app.id, target.externalId);
    if (!account) throw notFound(target.externalId);
    return account;
  }

  private async setStatus(
    account: StoredAccount,
    status: NonNullable<StoredAccount['status']>,
    reason: string | undefined,
  ): Promise<AccountStatusView> {
    // Re-read: a rename or metadata change made since the target was read is kept.
    const current = (await this.storage.accounts.getAccount(account.id)) ?? account;
    const { statusReason: _, ...rest } = current;
    const next: StoredAccount = {
      ...rest,
      status,
      ...(reason === undefined ? {} : { statusReason: reason }),
    };
    await this.storage.accounts.saveAccount(next);
    return statusView(next);
  }

  /** Revokes every token and session of the account, closes its challenges, forfeits its games. */
  private async shutOut(id: string): Promise<void> {
    const at = this.now().toISOString();
    for (const session of await this.storage.apps.listSessions(id)) {
      if (session.revokedAt === null) await this.storage.apps.revokeSession(session.app, session.id, at);
    }
    for (const token of await this.storage.accounts.listTokens(id)) {
      if (token.revokedAt === null) await this.storage.accounts.revokeToken(id, token.id, at);
    }
    // Streams app keys opened acting for it (the keys themselves stay good for the app's others).
    await this.storage.events.announceRevocation(actingMarker(id));
    await this.challenges.closeAllOf(id);
    await this.forfeitAll(id);
  }

  /** Ends every ongoing game of the account: it loses by forfeit (reason `banned`; rated: a loss). */
  async forfeitAll(account: string): Promise<number> {
    let forfeited = 0;
    const seen = new Set<string>();
    // Each forfeit takes the game out of the ongoing listing: read the first page until it holds
    // nothing new (a listing a moment behind its game is not read twice).
    for (;;) {
      const page = await this.storage.games.list({ account, status: 'ongoing' }, 50);
      const fresh = page.items.filter((game) => !seen.has(game.id));
      if (fresh.length === 0) return forfeited;
      for (const game of fresh) {
        seen.add(game.id);
        if (await this.forfeit(game.id, account)) forfeited++;
      }
    }
  }

  /** The service's own write (like a timeout), retried on races; false when it ended meanwhile. */
  private async forfeit(id: string, account: string): Promise<boolean> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const game = await this.storage.games.get(id);
      if (!game || game.status !== 'ongoing') return false;
      const result = await this.games.writer.commit(game, await this.forfeited(game, account));
      if (result.status === 'updated') return true;
      if (result.status === 'missing') return false;
    }
    throw new GameError('VERSION_CONFLICT', `Game ${id} is changing too fast to forfeit`);
  }

  private async forfeited(game: StoredGame, account: string): Promise<StoredGame> {
    const seat = game.seats.find((s) => s.account === account)?.seat ?? 0;
    // Both seats the same account (a game against oneself): no winner.
    const winner = game.seats.every((s) => s.account === account) ? undefined : other(seat);
    const outcome =
      winner === undefined ? { reason: 'banned' as const } : { winner, reason: 'banned' as const };
    const at = this.now().getTime();
    return timed(game, finish(game, outcome), at, await vacationsOf(this.storage, game));
  }
}

export function statusView(account: StoredAccount): AccountStatusView {
  return {
    id: account.id,
    app: appOf(account),
    externalId: account.externalId ?? null,
    username: account.username,
    displayName: account.displayName ?? null,
    kind: account.kind,
    status: account.status ?? 'active',
    statusReason: account.statusReason ?? null,
    createdAt: account.createdAt,
  };
}

function reasonOf(reason: string | undefined): string | undefined {
  if (reason === undefined) return undefined;
  const text = checkText('reason', String(reason).trim());
  if (text.length < 1 || text.length > REASON_MAX) {
    throw new GameError('INVALID_INPUT', `reason is 1–${REASON_MAX} characters`, { field: 'reason' });
  }
  return text;
}

function notFound(name: string): GameError {
  return new GameError('ACCOUNT_NOT_FOUND', `No account ${name}`);
}

function alreadyBanned(account: StoredAccount): GameError {
  return new GameError('ACCOUNT_RESTRICTED', `The account ${account.id} is banned: unban it first`, {
    status: 'banned',
    ...(account.statusReason ? { reason: account.statusReason } : {}),
  });
}
