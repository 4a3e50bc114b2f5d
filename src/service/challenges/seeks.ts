import { randomBytes, randomInt } from 'node:crypto';
import type { Options } from '../../engines/types';
import {
  appOf,
  type Storage,
  type StoredAccount,
  type StoredSeek,
  type TimeControl,
} from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import { avoidedBy } from '../accounts/blocks';
import { OPEN_APP } from '../../store/store';
import type { Pools } from '../apps/pools';
import { ATTEMPTS, DAY } from './service';
import { seconds } from './inputs';
import { GameError } from '../errors';
import { refuseRestricted } from '../accounts/restricted';
import type { GameView } from '../game/view';
import type { GameService } from '../game/service';
import { canonicalJson, once } from '../idempotency';
import { gameLimits, tooManyGames, type Quotas } from '../accounts/quotas';
import { ratedFlag, seatRatings } from '../ratings/results';
import { startOf } from '../game/start';
import { parseTimeControl, timeControlKey, type TimeControlInput } from '../time/control';
import { feature } from '../game/tv';
import type { GameVisibility, SeekStatus } from '../../vocabulary';
import { stricter, visibilityOf } from '../game/audience';
import { parseRatingRange, type RatingRangeInput } from './rating-range';
import {
  settingsFields,
  settingsOf,
  settingsView,
  stricterSettings,
  type GameSettingsInput,
  type GameSettingsView,
} from '../game/settings';
import { slimNotice } from '../delivery/feed-events';

export const SEEK_ID = /^[A-Za-z0-9_-]{12}$/;

export interface CreateSeekInput {
  readonly kind: string;
  readonly options?: unknown;
  readonly timeControl?: TimeControlInput | null;
  /** A game from this position; it pairs only with seeks for the same position. */
  readonly position?: string | null;
  /** Seconds the seek waits for a partner: 10 s to 1 day, default 1 hour. */
  readonly expiresInSeconds?: number;
  /** A rated game (default false; the standard start only): pairs only with rated seeks. */
  readonly rated?: boolean | null;
  /** Who may read the game (public, unlisted, private; default public): the stricter of the two seeks'. */
  readonly visibility?: string | null;
  /** The opponent ratings admitted (absolute, in the seek's perf); pairing honours both seeks' ranges. */
  readonly ratingRange?: RatingRangeInput | null;
  /** What the game allows (takebacks, chat): the stricter of the two seeks'. */
  readonly settings?: GameSettingsInput | null;
}

export interface SeekView {
  readonly id: string;
  readonly account: string;
  readonly kind: string;
  readonly options: Options;
  readonly timeControl: TimeControl;
  /** A seek for a game from a position: that position; null for the standard start. */
  readonly initialPosition: string | null;
  /** A seek for a rated game. */
  readonly rated: boolean;
  /** Who may read the game it makes (the stricter of the two matched seeks'). */
  readonly visibility: GameVisibility;
  /** The opponent ratings the seeker admits (null: any; a null bound: open on that side). */
  readonly ratingRange: { readonly min: number | null; readonly max: number | null } | null;
  /** What the seek asked the game to allow (a match's game: the stricter of the two seeks'). */
  readonly settings: GameSettingsView;
  /** waiting: no partner yet; matched: `game` is the new game. */
  readonly status: SeekStatus;
  readonly game: GameView | null;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** Seeks: an account asks for a game and is paired with another account asking for the same one. */
export class SeekService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly now: () => Date,
    private readonly quotas: Quotas,
    private readonly pools: Pools,
  ) {}

  /**
   * Post a seek: matched at once with a compatible waiting seek by another account, or left waiting.
   * Retrying with the same Idempotency-Key answers the first answer (one seek, at most one game).
   */
  async createSeek(
    credential: Credential,
    input: CreateSeekInput,
    options: { idempotencyKey?: string } = {},
  ): Promise<SeekView> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    const call = {
      scope: `account:${account.id}`,
      key: options.idempotencyKey,
      operation: 'createSeek',
      input,
    };
    return once(this.storage.idempotency, call, () => this.seek(account, input));
  }

  private async seek(account: StoredAccount, input: CreateSeekInput): Promise<SeekView> {
    refuseRestricted(account);
    const engine = this.games.engineFor(input.kind);
    const options = this.games.parseOptions(engine, input.options);
    const start = startOf(engine, options, input);
    const { initialPosition } = start;
    const rated = ratedFlag(input.rated, initialPosition);
    const visibility = visibilityOf(input.visibility);
    const timeControl = parseTimeControl(input.timeControl);
    const ratingRange = parseRatingRange(input.ratingRange);
    const at = this.now();
    // Seeks pair within the seeker's pool only (the open pool's keep the keys they always had).
    const pool = await this.pools.ofAccount(account.id);
    // The seeker's rating in the perf now: what the ranges of the seeks it meets are held to.
    const ratings = await seatRatings(
      this.storage,
      [account.id],
      { kind: engine.kind, timeControl },
      at.toISOString(),
    );
    const seek: StoredSeek = {
      id: randomBytes(9).toString('base64url'),
      account: account.id,
      kind: engine.kind,
      options,
      timeControl,
      ...(initialPosition === undefined ? {} : { initialPosition }),
      ...(rated ? { rated: true } : {}),
      ...(visibility === 'public' ? {} : { visibility }),
      ...settingsFields(settingsOf(input.settings, rated)),
      // Seeks from a position pair only with seeks from the same (canonical) position, rated ones
      // only with rated ones.
      pool:
        `${engine.kind}|${canonicalJson(options)}|${timeControlKey(timeControl)}` +
        (initialPosition === undefined ? '' : `|position:${initialPosition}`) +
        (rated ? '|rated' : '') +
        (pool === OPEN_APP ? '' : `|pool:${pool}`),
      ...(pool === OPEN_APP ? {} : { lobby: pool }),
      rating: ratings.get(account.id)?.rating ?? 0,
      ...(ratingRange ? { ratingRange } : {}),
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + seconds(input.expiresInSeconds, 10, DAY, 3600) * 1000).toISOString(),
    };
    const [mine] = gameLimits([account], this.quotas);
    if (mine && (await this.storage.games.countOngoing(account.id)) >= mine.max) {
      throw tooManyGames(account, this.quotas);
    }
    // Never paired with an account it blocks or that blocks it.
    const avoid = await avoidedBy(this.storage, account.id);
    // A partner that is full by now loses its seek (it could not play) and the match is tried again.
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const partner = await this.storage.seeks.matchOrAdd(seek, seek.createdAt, avoid);
      if (!partner) return seekView(seek, null);
      const other = await this.storage.accounts.getAccount(partner.account);
      // A partner restricted or erased since it posted its seek has lost it (the match took it out).
      if (!other || (other.status ?? 'active') !== 'active') continue;
      const game = await this.pairSeeks(account, other, seek, partner, timeControl, start);
      if (game) return seekView(seek, game);
    }
    throw new GameError('VERSION_CONFLICT', 'The seek pool is changing too fast; retry');
  }

  /**
   * The game of two matched seeks, stored with both players' caps; null when the partner is full.
   * `seek` is the newer side (its account is `account`), `partner` the one that waited.
   */
  async pairSeeks(
    account: StoredAccount,
    other: StoredAccount | undefined,
    seek: StoredSeek,
    partner: StoredSeek,
    timeControl: TimeControl,
    start: ReturnType<typeof startOf>,
  ): Promise<GameView | null> {
    const accounts: [string, string] =
      randomInt(2) === 0 ? [partner.account, account.id] : [account.id, partner.account];
    const game = this.games.newGame({
      kind: seek.kind,
      options: seek.options,
      ...start,
      accounts,
      timeControl,
      at: seek.createdAt,
      ...(timeControl.type === 'correspondence'
        ? { vacations: await this.games.time.vacationsFor(accounts) }
        : {}),
      ...(seek.rated ? { rated: await seatRatings(this.storage, accounts, seek, seek.createdAt) } : {}),
      // The seeker's app and pool (its partner is of its pool); the stricter visibility of the two.
      audience: await this.games.audience(
        appOf(account),
        stricter(seek.visibility ?? 'public', partner.visibility ?? 'public'),
      ),
      settings: stricterSettings(seek.settings, partner.settings),
    });
    const view = this.games.view(game);
    await this.games.countCreated(account.id);
    let created;
    try {
      created = await this.storage.games.create(
        game,
        [
          slimNotice({
            to: accounts,
            type: 'game.started',
            at: seek.createdAt,
            data: { game: this.games.headView(game) },
          }),
        ],
        gameLimits([account, ...(other ? [other] : [])], this.quotas),
      );
    } catch (error) {
      // The match took the partner's seek out of its pool: put it back so that it is not lost.
      await this.storage.seeks.matchOrAdd(partner, this.now().toISOString()).catch(() => undefined);
      throw error;
    }
    if (created.status === 'created') {
      await feature(this.storage, game);
      return view;
    }
    if (created.account === account.id) {
      await this.storage.seeks.matchOrAdd(partner, this.now().toISOString()).catch(() => undefined);
      throw tooManyGames(account, this.quotas);
    }
    return null;
  }

  /** Withdraw one's own waiting seek. */
  async cancelSeek(credential: Credential, id: string): Promise<void> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    if (!SEEK_ID.test(id)) throw new GameError('INVALID_INPUT', `Malformed seek id "${id}"`, { field: 'id' });
    const seek = await this.storage.seeks.getSeek(id);
    const seen = seek && (await this.pools.sees(await this.pools.ofAccount(account.id), seek.account));
    if (!seek || !seen) throw new GameError('SEEK_NOT_FOUND', `No waiting seek ${id}`);
    if (seek.account !== account.id) throw new GameError('FORBIDDEN', 'This seek belongs to another account');
    if (!(await this.storage.seeks.removeSeek(id, 'canceled')))
      throw new GameError('SEEK_NOT_FOUND', `No waiting seek ${id}`);
  }
}

export function seekView(seek: StoredSeek, game: GameView | null): SeekView {
  return {
    id: seek.id,
    account: seek.account,
    kind: seek.kind,
    options: seek.options,
    timeControl: seek.timeControl,
    initialPosition: seek.initialPosition ?? null,
    rated: seek.rated === true,
    visibility: seek.visibility ?? 'public',
    ratingRange: seek.ratingRange
      ? { min: seek.ratingRange.min ?? null, max: seek.ratingRange.max ?? null }
      : null,
    settings: settingsView(seek),
    status: game ? 'matched' : 'waiting',
    game,
    createdAt: seek.createdAt,
    expiresAt: seek.expiresAt,
  };
}
