import { randomBytes, randomInt } from 'node:crypto';
import {
  appOfAccountId,
  DECLINE_REASONS,
  type DeclineReason,
  type GameLimit,
  type Notice,
  type Storage,
  type StoredAccount,
  type StoredChallenge,
  type StoredGame,
} from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import type { Pools } from '../apps/pools';
import { involvedIn, readerOf, requireSeen } from './pool-access';
import { oneOf, seconds, unknownAccount } from './inputs';
import { checkBlocks, checkChallengeCaps } from './limits';
import { GameError } from '../errors';
import { refuseRestricted } from '../accounts/restricted';
import type { GameService } from '../game/service';
import { canonicalJson, once } from '../idempotency';
import { gameLimits, tooManyGames, type Quotas } from '../accounts/quotas';
import { ratedFlag, seatRatings } from '../ratings/results';
import { startOf } from '../game/start';
import { visibilityOf } from '../game/audience';
import { parseTimeControl, type TimeControlInput } from '../time/control';
import { feature } from '../game/tv';
import { settingsFields, settingsOf, type GameSettingsInput } from '../game/settings';
import { challengeView, type ChallengeView } from './view';
import { slimNotice } from '../delivery/feed-events';
export { challengeView, type ChallengeView } from './view';

const CHALLENGE_ID = /^[A-Za-z0-9_-]{12}$/;
/** How often a challenge write retries after losing a compare-and-set to another writer. */
export const ATTEMPTS = 8;
export const DAY = 24 * 60 * 60;
/** Open challenges listed per page unless the client asks for another size. */
export const DEFAULT_CHALLENGE_PAGE = 50;

export interface CreateChallengeInput {
  /** Direct challenge: the username challenged. Omit for an open challenge. */
  readonly to?: string;
  /** Open challenge limited to two named usernames (in seat order when `starts` is 'listed'). */
  readonly players?: readonly string[];
  readonly kind: string;
  readonly options?: unknown;
  readonly timeControl?: TimeControlInput | null;
  /** A game from this position (the game's notation); `starts` then names who plays its side to move. */
  readonly position?: string | null;
  /** Direct: challenger | destination | random (default). Open: listed | random (default). */
  readonly starts?: string;
  /** Seconds until the challenge expires unanswered: 10 s to 14 days, default 1 day. */
  readonly expiresInSeconds?: number;
  /** A rated game (default false): two accounts, the standard start. */
  readonly rated?: boolean | null;
  /** Who may read the game it makes (public, unlisted, private; default public). */
  readonly visibility?: string | null;
  /** What the game allows (takebacks, chat); rated games allow no takeback. */
  readonly settings?: GameSettingsInput | null;
}

/** Challenges (direct and open): one of the ways two accounts come to play a game (seeks.ts has the other). */
export class ChallengeService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly now: () => Date,
    private readonly quotas: Quotas,
    private readonly pools: Pools,
  ) {}

  /** Retrying with the same Idempotency-Key answers the first answer; one challenge is made. */
  async create(
    credential: Credential,
    input: CreateChallengeInput,
    options: { idempotencyKey?: string } = {},
  ): Promise<ChallengeView> {
    const { account: challenger } = await this.auth.requireAccount(credential, 'challenge:write');
    const call = {
      scope: `account:${challenger.id}`,
      key: options.idempotencyKey,
      operation: 'createChallenge',
      input,
    };
    return once(this.storage.idempotency, call, () => this.make(challenger, input));
  }

  private async make(challenger: StoredAccount, input: CreateChallengeInput): Promise<ChallengeView> {
    refuseRestricted(challenger);
    const engine = this.games.engineFor(input.kind);
    const options = this.games.parseOptions(engine, input.options);
    const { initialPosition } = startOf(engine, options, input);
    const rated = ratedFlag(input.rated, initialPosition);
    const visibility = visibilityOf(input.visibility);
    const timeControl = parseTimeControl(input.timeControl);
    const at = this.now();
    const expiresAt = new Date(at.getTime() + seconds(input.expiresInSeconds, 10, 14 * DAY, DAY) * 1000);
    let destination: StoredAccount | null = null;
    let players: [string, string] | null = null;
    let starts: StoredChallenge['starts'];
    // Challenges stay within the challenger's pool (the AI is in every pool).
    const pool = await this.pools.ofAccount(challenger.id);
    if (input.to !== undefined) {
      if (input.players !== undefined) {
        throw new GameError('INVALID_INPUT', 'Give either `to` (direct) or `players` (open), not both');
      }
      destination = await this.account(input.to, pool);
      refuseRestricted(destination);
      if (destination.id === challenger.id)
        throw new GameError('INVALID_INPUT', 'You cannot challenge yourself');
      starts = oneOf(input.starts ?? 'random', ['challenger', 'destination', 'random'], 'starts');
    } else {
      if (input.players !== undefined) {
        if (input.players.length !== 2)
          throw new GameError('INVALID_INPUT', 'players must name two accounts');
        const [a, b] = await Promise.all(input.players.map((p) => this.account(p, pool)));
        refuseRestricted(a, b);
        if (!a || !b || a.id === b.id)
          throw new GameError('INVALID_INPUT', 'players must be two different accounts');
        players = [a.id, b.id];
      }
      starts = oneOf(input.starts ?? 'random', ['listed', 'random'], 'starts');
    }
    await checkBlocks(this.storage, challenger, [
      ...(destination ? [destination.id] : []),
      ...(players ?? []),
    ]);
    await checkChallengeCaps(this.storage, this.quotas, challenger, destination?.id ?? null, players);
    let challenge: StoredChallenge = {
      id: randomBytes(9).toString('base64url'),
      version: 0,
      status: 'open',
      kind: engine.kind,
      options,
      timeControl,
      ...(initialPosition === undefined ? {} : { initialPosition }),
      ...(rated ? { rated: true } : {}),
      ...(visibility === 'public' ? {} : { visibility }),
      ...settingsFields(settingsOf(input.settings, rated)),
      challenger: challenger.id,
      destination: destination?.id ?? null,
      players,
      starts,
      accepted: [],
      declineReason: null,
      closedBy: null,
      gameId: null,
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
    const iso = at.toISOString();
    let notices: Notice[];
    const refusal = destination ? await this.botRefusal(destination, challenge) : null;
    if (destination && refusal) {
      // Declined on the bot's behalf: only the challenger hears of it.
      challenge = { ...challenge, status: 'declined', declineReason: refusal, closedBy: destination.id };
      notices = [notice([challenger.id], 'challenge.declined', iso, challenge)];
    } else {
      const to = destination ? [destination.id] : (players ?? []).filter((p) => p !== challenger.id);
      notices = to.length > 0 ? [notice(to, 'challenge.received', iso, challenge)] : [];
    }
    await this.storage.challenges.createChallenge(challenge, notices);
    return challengeView(challenge);
  }

  /** Declines (by `blocker`, with the usual notices) the open challenges `from` made to it: what a block does. */
  async declineAllFrom(blocker: StoredAccount, from: string): Promise<void> {
    const mine = (c: StoredChallenge) => c.destination === blocker.id || c.players?.includes(blocker.id);
    const open = await this.storage.challenges.listOpen(blocker.id);
    await this.closeEach(
      open.filter((c) => c.challenger === from && mine(c)),
      blocker.id,
    );
  }

  /** Cancels the open challenges `account` made, declines those it received: what a ban or erasure does. */
  async closeAllOf(account: string): Promise<void> {
    await this.closeEach(await this.storage.challenges.listOpen(account), account);
  }

  /** Closes each by `by` (its own canceled, others declined, reason generic); closed meanwhile: skipped. */
  private async closeEach(open: readonly StoredChallenge[], by: string): Promise<void> {
    for (const c of open) {
      await this.transition(
        c.id,
        (current, at) => {
          const next: StoredChallenge =
            current.challenger === by
              ? { ...current, status: 'canceled', closedBy: by }
              : { ...current, status: 'declined', declineReason: 'generic', closedBy: by };
          const type = next.status === 'canceled' ? 'challenge.canceled' : 'challenge.declined';
          return { next, notices: [notice(involvedIn(current), type, at, next)] };
        },
        (done) => done.status !== 'open' && done.closedBy === by,
      ).catch((error: unknown) => {
        if (!(error instanceof GameError && error.code === 'CHALLENGE_CLOSED')) throw error;
      });
    }
  }

  /** Anyone of its pool with the id (the link) may read a challenge; another pool's answers as missing. */
  async get(id: string, credential?: Credential): Promise<ChallengeView> {
    const reader = await readerOf(this.auth, this.pools, credential);
    const challenge = await this.load(id);
    await requireSeen(this.pools, challenge, reader.pool, reader.account);
    return challengeView(challenge);
  }

  /** The challenge as `account` may act on it: another pool's answers as a missing one. */
  private async loadFor(id: string, account: StoredAccount): Promise<StoredChallenge> {
    const challenge = await this.load(id);
    await requireSeen(this.pools, challenge, await this.pools.ofAccount(account.id), account.id);
    return challenge;
  }

  /** Open challenges the caller made or received, newest first, a page at a time (`limit` 1–100, default 50). */
  async listOpen(
    credential: Credential,
    limit: number = DEFAULT_CHALLENGE_PAGE,
    before?: number,
  ): Promise<{ items: ChallengeView[]; next: number | null }> {
    const { account } = await this.auth.requireAccount(credential, 'game:read', 'challenge:write');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new GameError('INVALID_INPUT', 'limit must be an integer from 1 to 100', { field: 'limit' });
    if (before !== undefined && (!Number.isInteger(before) || before < 0))
      throw new GameError('INVALID_INPUT', "before must be a previous page's next", { field: 'before' });
    const page = await this.storage.challenges.pageOpen(account.id, limit, before);
    return { items: page.items.map(challengeView), next: page.next };
  }

  /**
   * Accept: a direct challenge by its destination; an open one by anyone (or a named player) — it
   * becomes a game once two accounts have accepted. Racing a cancel, exactly one of them wins.
   * Accept, decline and cancel are safe to retry: a repeat by the same account answers the same.
   */
  async accept(credential: Credential, id: string): Promise<ChallengeView> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    // A correspondence game starts with its first mover's vacation already counted.
    const peek = await this.loadFor(id, account);
    // Its challenger (or the other acceptor of an open one) may block the caller.
    if (peek.status === 'open' && !peek.accepted.includes(account.id)) {
      await checkBlocks(this.storage, account, [peek.challenger, ...peek.accepted]);
    }
    const vacations =
      peek.timeControl.type === 'correspondence'
        ? await this.games.time.vacationsFor([...involvedIn(peek), account.id])
        : undefined;
    // The players' ongoing-games caps (a bot's maxGames, the quota), checked by the write itself.
    const players = new Map<string, StoredAccount>([[account.id, account]]);
    for (const id of involvedIn(peek)) {
      if (!players.has(id)) {
        const other = await this.storage.accounts.getAccount(id);
        if (other) players.set(id, other);
      }
    }
    refuseRestricted(...players.values());
    // This acceptance starts the game (direct, or the second of an open one): the challenger's app counts it.
    if (peek.status === 'open' && (peek.destination !== null || peek.accepted.length >= 1)) {
      await this.games.countCreated(peek.challenger);
    }
    // A rated game records each seat's rating as it begins (read now, before the write).
    const ratings = peek.rated
      ? await seatRatings(this.storage, [...players.keys()], peek, this.now().toISOString())
      : undefined;
    // The challenger's app and pool (its opponents are of its pool), the visibility it asked for.
    const audience = await this.games.audience(appOfAccountId(peek.challenger), peek.visibility);
    return this.transition(
      id,
      (c, at) => {
        if (c.destination !== null && c.destination !== account.id) {
          throw new GameError('FORBIDDEN', 'This challenge is addressed to another account');
        }
        if (c.players && !c.players.includes(account.id)) {
          throw new GameError('FORBIDDEN', 'This open challenge is for two named players only');
        }
        if (c.accepted.includes(account.id)) return null; // accepting twice changes nothing
        const accepted = [...c.accepted, account.id];
        const involved = involvedIn(c);
        const acceptedNotice = (next: StoredChallenge) =>
          notice([...new Set([...involved, account.id])], 'challenge.accepted', at, next);
        const pair =
          c.destination !== null ? [c.challenger, c.destination] : accepted.length === 2 ? accepted : null;
        if (!pair) {
          const next = { ...c, accepted };
          return { next, notices: [acceptedNotice(next)] };
        }
        // `starts` names who moves first: from a position with seat 1 to move, that is seat 1.
        const start = startOf(this.games.engineFor(c.kind), c.options, {
          position: c.initialPosition ?? null,
        });
        const seating = this.seating(c, pair as [string, string]);
        // The game takes the challenge's id (as on lichess): one id to follow, and one shard of the
        // store for the step that ends the challenge and starts the game.
        const game = this.games.newGame({
          id: c.id,
          kind: c.kind,
          options: c.options,
          ...start,
          accounts: start.first === 0 ? seating : [seating[1], seating[0]],
          timeControl: c.timeControl,
          at,
          ...(vacations ? { vacations } : {}),
          ...(c.rated ? { rated: ratings ?? new Map() } : {}),
          audience,
          settings: c.settings,
        });
        const next: StoredChallenge = { ...c, accepted, status: 'accepted', gameId: game.id };
        // An acceptor that joined after the peek is unknown here: the quota still holds for it.
        const seated = pair.map((id) => players.get(id) ?? unknownAccount(id));
        return {
          next,
          game,
          limits: gameLimits(seated, this.quotas),
          notices: [
            acceptedNotice(next),
            slimNotice({ to: pair, type: 'game.started', at, data: { game: this.games.headView(game) } }),
          ],
        };
      },
      (c) => c.status === 'accepted' && c.accepted.includes(account.id),
      (id) => tooManyGames(players.get(id) ?? unknownAccount(id), this.quotas),
    );
  }

  /** The challenged account (or a named player) says no, with a reason code. */
  async decline(credential: Credential, id: string, reason = 'generic'): Promise<ChallengeView> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    const code = oneOf(reason, DECLINE_REASONS, 'reason') as DeclineReason;
    await this.loadFor(id, account);
    return this.transition(
      id,
      (c, at) => {
        const mayDecline = c.destination === account.id || (c.players?.includes(account.id) ?? false);
        if (!mayDecline) throw new GameError('FORBIDDEN', 'Only the challenged account may decline');
        const next: StoredChallenge = { ...c, status: 'declined', declineReason: code, closedBy: account.id };
        return { next, notices: [notice(involvedIn(c), 'challenge.declined', at, next)] };
      },
      (c) => c.status === 'declined' && c.closedBy === account.id,
    );
  }

  /** The challenger withdraws the challenge. */
  async cancel(credential: Credential, id: string): Promise<ChallengeView> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    await this.loadFor(id, account);
    return this.transition(
      id,
      (c, at) => {
        if (c.challenger !== account.id) throw new GameError('FORBIDDEN', 'Only the challenger may cancel');
        const next: StoredChallenge = { ...c, status: 'canceled', closedBy: account.id };
        return { next, notices: [notice(involvedIn(c), 'challenge.canceled', at, next)] };
      },
      (c) => c.status === 'canceled' && c.closedBy === account.id,
    );
  }

  /** Expires every open challenge past its time (each exactly once, whichever node gets there first). */
  async expireDue(limit = 100): Promise<number> {
    const ids = await this.storage.challenges.dueChallenges(this.now().toISOString(), limit);
    let expired = 0;
    for (const id of ids) {
      const challenge = await this.storage.challenges.getChallenge(id);
      if (challenge && challenge.status === 'open' && (await this.expire(challenge))) expired++;
    }
    return expired;
  }

  /** Read, check it is still open (expiring it if due), compute, compare-and-set; retried on races. */
  private async transition(
    id: string,
    compute: (
      challenge: StoredChallenge,
      at: string,
    ) => { next: StoredChallenge; notices: Notice[]; game?: StoredGame; limits?: GameLimit[] } | null,
    /** A retry of a transition this caller already made: answered again instead of CHALLENGE_CLOSED. */
    done: (challenge: StoredChallenge) => boolean,
    /** The refusal when the game would exceed an account's ongoing-games cap. */
    full: (account: string) => GameError = (account) =>
      new GameError('TOO_MANY_GAMES', `${account} has too many ongoing games`),
  ): Promise<ChallengeView> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const challenge = await this.load(id);
      if (challenge.status === 'open' && Date.parse(challenge.expiresAt) <= this.now().getTime()) {
        await this.expire(challenge);
        continue;
      }
      if (challenge.status !== 'open') {
        if (done(challenge)) return challengeView(challenge);
        throw closed(challenge);
      }
      const at = this.now().toISOString();
      const change = compute(challenge, at);
      if (!change) return challengeView(challenge);
      const next = { ...change.next, version: challenge.version + 1, updatedAt: at };
      const result = await this.storage.challenges.updateChallenge(next, challenge.version, {
        notices: change.notices.map((n) =>
          n.type.startsWith('challenge.') ? { ...n, data: { challenge: challengeView(next) } } : n,
        ),
        ...(change.game ? { game: change.game } : {}),
        ...(change.limits ? { limits: change.limits } : {}),
      });
      if (typeof result === 'object') throw full(result.tooManyGames);
      if (result === 'updated') {
        if (change.game) await feature(this.storage, change.game);
        return challengeView(next);
      }
      if (result === 'missing') throw new GameError('CHALLENGE_NOT_FOUND', `No challenge ${id}`);
    }
    throw new GameError('VERSION_CONFLICT', 'The challenge is changing too fast; read it and retry');
  }

  private async expire(challenge: StoredChallenge): Promise<boolean> {
    const at = this.now().toISOString();
    const next: StoredChallenge = {
      ...challenge,
      status: 'expired',
      version: challenge.version + 1,
      updatedAt: at,
    };
    const result = await this.storage.challenges.updateChallenge(next, challenge.version, {
      notices: [notice(involvedIn(challenge), 'challenge.expired', at, next)],
    });
    return result === 'updated';
  }

  private async load(id: string): Promise<StoredChallenge> {
    if (!CHALLENGE_ID.test(id))
      throw new GameError('INVALID_INPUT', `Malformed challenge id "${id}"`, { field: 'id' });
    const challenge = await this.storage.challenges.getChallenge(id);
    if (!challenge) throw new GameError('CHALLENGE_NOT_FOUND', `No challenge ${id}`);
    return challenge;
  }

  /** The account `username` as `pool` sees it (another pool's answers as a missing one). */
  private async account(username: string, pool: string): Promise<StoredAccount> {
    const account = await this.pools.visible(
      pool,
      await this.storage.accounts.getAccount(String(username).toLowerCase()),
    );
    if (!account) throw new GameError('ACCOUNT_NOT_FOUND', `No account named ${username}`, { username });
    return account;
  }

  /** Seat 0 moves first; who sits there follows the challenge's `starts`. */
  private seating(c: StoredChallenge, pair: [string, string]): [string, string] {
    const [a, b] = c.players && c.destination === null ? c.players : pair;
    switch (c.starts) {
      case 'challenger':
      case 'listed':
        return [a, b];
      case 'destination':
        return [b, a];
      case 'random':
        return randomInt(2) === 0 ? [a, b] : [b, a];
    }
  }

  /** Why a bot's declarations refuse a challenge, or null when it fits. */
  private async botRefusal(bot: StoredAccount, c: StoredChallenge): Promise<DeclineReason | null> {
    const policy = bot.bot;
    if (bot.kind !== 'bot' || !policy) return null;
    if (!policy.kinds.includes(c.kind)) return 'kind';
    if (!policy.timeControls.includes(c.timeControl.type)) return 'timeControl';
    const accepted = policy.options[c.kind] ?? {};
    for (const [name, values] of Object.entries(accepted)) {
      const value = c.options[name];
      if (!values.some((v) => canonicalJson(v) === canonicalJson(value))) return 'options';
    }
    if ((await this.storage.games.countOngoing(bot.id)) >= policy.maxGames) return 'tooManyGames';
    return null;
  }
}

function closed(c: StoredChallenge): GameError {
  return new GameError('CHALLENGE_CLOSED', `The challenge is ${c.status}`, {
    challengeStatus: c.status,
    gameId: c.gameId,
    declineReason: c.declineReason,
  });
}

function notice(to: readonly string[], type: Notice['type'], at: string, challenge: StoredChallenge): Notice {
  return { to, type, at, data: { challenge: challengeView(challenge) } };
}
