import { randomBytes } from 'node:crypto';
import { isProvisional } from '../../ratings/glicko2';
import {
  admits,
  type LobbyChange,
  type LobbyCursor,
  type Storage,
  type StoredAccount,
  type StoredSeek,
} from '../../store/store';
import { TIME_CONTROL_TYPES, type SeekRemovalReason, type TimeControlType } from '../../vocabulary';
import type { Authenticator, Credential } from '../accounts/auth';
import { avoidedBy } from '../accounts/blocks';
import { gameLimits, tooManyGames, type Quotas } from '../accounts/quotas';
import { refuseRestricted } from '../accounts/restricted';
import type { Pools } from '../apps/pools';
import { GameError } from '../errors';
import { startOf } from '../game/start';
import type { GameService } from '../game/service';
import { once } from '../idempotency';
import { perfOf, ratingAt } from '../ratings/results';
import { readerOf } from './pool-access';
import { parseRating } from './rating-range';
import { SEEK_ID, seekView, type SeekService, type SeekView } from './seeks';

// The lobby: the waiting seeks of a pool, listed (GET /seeks, query seeks), followed live (GET
// /seeks/stream, subscription lobby) and taken by another account (POST /seeks/{id}/accept). An
// account sees its pool's seeks (apps/pools.ts), anyone else the open pool's; seeks of accounts the
// viewer blocks, or that block it, are left out.

/** Seeks per lobby page: default and most. */
export const DEFAULT_LOBBY_PAGE = 20;
export const LOBBY_PAGE_MAX = 100;
/** How many waiting seeks (oldest first) a live lobby sends when it opens. */
export const LOBBY_SNAPSHOT_MAX = 100;

/** What a lobby shows (every field optional: no filter). */
export interface LobbyFilterInput {
  readonly kind?: string | null;
  /** unlimited, realtime or correspondence. */
  readonly timeControl?: string | null;
  readonly rated?: boolean | null;
  /** Only seeks whose rating range admits this rating. */
  readonly rating?: number | null;
}

/** A listed seek: the seek, its seeker's username and rating in the seek's perf now. */
export interface LobbySeekView extends SeekView {
  readonly username: string;
  readonly rating: number;
  /** The rating is provisional (few rated games, or long unplayed). */
  readonly provisional: boolean;
}

export interface LobbyPageView {
  readonly items: LobbySeekView[];
  /** Pass as `after` for the next page; null on the last page. */
  readonly next: string | null;
}

/** A live lobby's messages: the opening seeks, `ready`, then each seek added and removed. */
export type LobbyEvent =
  | { readonly type: 'seek.added'; readonly seek: LobbySeekView }
  | { readonly type: 'seek.removed'; readonly id: string; readonly reason: SeekRemovalReason }
  | { readonly type: 'ready'; readonly listed: number; readonly more: boolean };

interface Filter {
  readonly kind?: string;
  readonly timeControl?: TimeControlType;
  readonly rated?: boolean;
  readonly rating?: number;
}

export class LobbyService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly seeks: SeekService,
    private readonly now: () => Date,
    private readonly quotas: Quotas,
    private readonly pools: Pools,
    private readonly snapshotMax = LOBBY_SNAPSHOT_MAX,
  ) {}

  /** A page of the reader's lobby: waiting, unexpired seeks, oldest first, filtered. */
  async list(
    credential: Credential | undefined,
    filter: LobbyFilterInput,
    page: { readonly limit?: number | null; readonly after?: string | null } = {},
  ): Promise<LobbyPageView> {
    const limit = pageLimit(page.limit);
    const after = page.after === undefined || page.after === null ? undefined : parseCursor(page.after);
    const { pool, where } = await this.viewOf(credential, filter);
    const at = this.now().toISOString();
    const listed = await this.storage.seeks.listSeeks(pool, {
      now: at,
      limit,
      ...(after ? { after } : {}),
      where,
    });
    return {
      items: await this.views(listed.items, at),
      next: listed.next ? cursorOf(listed.next) : null,
    };
  }

  /**
   * The reader's lobby live: `push` gets the waiting seeks (up to LOBBY_SNAPSHOT_MAX, oldest first) as
   * `seek.added`, then `ready`, then each seek added and each of those removed (matched, canceled, or
   * expired at its expiresAt), filtered. A lost bus connection ends it with UPDATES_LOST (`fail`): the
   * client opens it again. Resolves with the function that stops it.
   */
  async watch(
    credential: Credential | undefined,
    filter: LobbyFilterInput,
    push: (event: LobbyEvent) => void,
    fail: (error: unknown) => void,
  ): Promise<() => Promise<void>> {
    const { pool, where } = await this.viewOf(credential, filter);
    const shown = new Map<string, number>();
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    // Changes wait here while the opening seeks are read; then each goes out in order.
    let buffered: LobbyChange[] | undefined = [];
    let chain = Promise.resolve();
    const expire = () => {
      timer = undefined;
      const now = this.now().getTime();
      for (const [id, expiresAt] of shown) {
        if (expiresAt > now) continue;
        shown.delete(id);
        push({ type: 'seek.removed', id, reason: 'expired' });
      }
      schedule();
    };
    const schedule = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (stopped || shown.size === 0) return;
      const next = Math.min(...shown.values());
      timer = setTimeout(expire, Math.max(0, next - this.now().getTime()) + 1);
      timer.unref();
    };
    const apply = async (change: LobbyChange) => {
      if (change.type === 'removed') {
        if (!shown.delete(change.id)) return;
        push({ type: 'seek.removed', id: change.id, reason: change.reason });
        return schedule();
      }
      const seek = change.seek;
      if (shown.has(seek.id) || !where(seek)) return;
      const at = this.now().toISOString();
      if (Date.parse(seek.expiresAt) <= Date.parse(at)) return;
      const [view] = await this.views([seek], at);
      if (stopped || !view) return;
      shown.set(seek.id, Date.parse(seek.expiresAt));
      push({ type: 'seek.added', seek: view });
      schedule();
    };
    const enqueue = (change: LobbyChange) => {
      if (stopped) return;
      if (buffered) return void buffered.push(change);
      chain = chain.then(() => apply(change)).catch((error: unknown) => stop(error));
    };
    const unsubscribe = await this.storage.seeks.watchLobby(pool, enqueue, () =>
      stop(new GameError('UPDATES_LOST', 'Lobby changes were lost on the way to this server; open it again')),
    );
    const stop = (error?: unknown) => {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      void unsubscribe();
      if (error !== undefined) fail(error);
    };
    try {
      const at = this.now().toISOString();
      const opening = await this.storage.seeks.listSeeks(pool, { now: at, limit: this.snapshotMax, where });
      for (const view of await this.views(opening.items, at)) {
        shown.set(view.id, Date.parse(view.expiresAt));
        push({ type: 'seek.added', seek: view });
      }
      push({ type: 'ready', listed: opening.items.length, more: opening.next !== undefined });
      schedule();
    } catch (error) {
      stop();
      throw error;
    }
    const waiting = buffered;
    buffered = undefined;
    for (const change of waiting) enqueue(change);
    return async () => stop();
  }

  /**
   * Another account takes a listed seek: the game starts at once (`game.started` in both feeds), and
   * the seek answers matched with its game. Exactly once: of two accepters one gets the game, the
   * other SEEK_NOT_FOUND. Refused: one's own seek (FORBIDDEN), a seeker blocking or blocked
   * (BLOCKED), a rating outside the seek's range (RATING_OUT_OF_RANGE), a restricted account, too
   * many games. Retrying with the same Idempotency-Key answers the first answer.
   */
  async accept(
    credential: Credential,
    id: string,
    options: { idempotencyKey?: string } = {},
  ): Promise<SeekView> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    const call = {
      scope: `account:${account.id}`,
      key: options.idempotencyKey,
      operation: 'acceptSeek',
      input: { id },
    };
    return once(this.storage.idempotency, call, () => this.take(account, id));
  }

  private async take(account: StoredAccount, id: string): Promise<SeekView> {
    refuseRestricted(account);
    if (!SEEK_ID.test(id)) throw new GameError('INVALID_INPUT', `Malformed seek id "${id}"`, { field: 'id' });
    const notFound = () => new GameError('SEEK_NOT_FOUND', `No waiting seek ${id}`);
    const at = this.now();
    const seek = await this.storage.seeks.getSeek(id);
    const pool = await this.pools.ofAccount(account.id);
    if (!seek || Date.parse(seek.expiresAt) <= at.getTime() || !(await this.pools.sees(pool, seek.account))) {
      throw notFound();
    }
    if (seek.account === account.id)
      throw new GameError('FORBIDDEN', 'This is your own seek: cancel it instead');
    if ((await avoidedBy(this.storage, account.id)).includes(seek.account)) {
      throw new GameError('BLOCKED', 'You cannot take this seek');
    }
    const rating = await this.ratingOf(account, seek, at.toISOString());
    if (!admits(seek.ratingRange, rating.rating)) {
      throw new GameError(
        'RATING_OUT_OF_RANGE',
        `Your rating ${rating.rating} is outside this seek's range`,
        {
          rating: rating.rating,
          min: seek.ratingRange?.min ?? null,
          max: seek.ratingRange?.max ?? null,
        },
      );
    }
    const [mine] = gameLimits([account], this.quotas);
    if (mine && (await this.storage.games.countOngoing(account.id)) >= mine.max) {
      throw tooManyGames(account, this.quotas);
    }
    // The one step two accepters race on: only one takes the seek out of its pool.
    if (!(await this.storage.seeks.removeSeek(id, 'matched'))) throw notFound();
    const seeker = await this.storage.accounts.getAccount(seek.account);
    // A seeker restricted or erased since it posted has lost its seek.
    if (!seeker || (seeker.status ?? 'active') !== 'active') throw notFound();
    const engine = this.games.engineFor(seek.kind);
    const start = startOf(engine, seek.options, { position: seek.initialPosition ?? null });
    // The accepter's side: the listed seek's settings, by the accepter, now.
    const taker: StoredSeek = {
      ...seek,
      id: randomBytes(9).toString('base64url'),
      account: account.id,
      rating: rating.rating,
      ratingRange: undefined,
      createdAt: at.toISOString(),
      expiresAt: at.toISOString(),
    };
    const game = await this.seeks.pairSeeks(account, seeker, taker, seek, seek.timeControl, start);
    // The seeker is full by now: its seek is gone (as when a match meets it), and no game was made.
    if (!game)
      throw new GameError('SEEK_NOT_FOUND', `Seek ${id} is gone: its seeker cannot start a game now`);
    return seekView(seek, game);
  }

  /** The reader's pool and the seeks it keeps (the filter, and no blocked or blocking seeker). */
  private async viewOf(
    credential: Credential | undefined,
    input: LobbyFilterInput,
  ): Promise<{ pool: string; where: (seek: StoredSeek) => boolean }> {
    const filter = this.filterOf(input);
    const reader = await readerOf(this.auth, this.pools, credential);
    const avoid = new Set(reader.account ? await avoidedBy(this.storage, reader.account) : []);
    const where = (seek: StoredSeek) =>
      !avoid.has(seek.account) &&
      (filter.kind === undefined || seek.kind === filter.kind) &&
      (filter.timeControl === undefined || seek.timeControl.type === filter.timeControl) &&
      (filter.rated === undefined || (seek.rated === true) === filter.rated) &&
      (filter.rating === undefined || admits(seek.ratingRange, filter.rating));
    return { pool: reader.pool, where };
  }

  private filterOf(input: LobbyFilterInput): Filter {
    const { kind, timeControl, rated, rating } = input;
    if (timeControl !== undefined && timeControl !== null && !isTimeControlType(timeControl)) {
      throw new GameError('INVALID_INPUT', `timeControl must be one of ${TIME_CONTROL_TYPES.join(', ')}`, {
        field: 'timeControl',
      });
    }
    return {
      ...(kind === undefined || kind === null ? {} : { kind: this.games.engineFor(kind).kind }),
      ...(timeControl === undefined || timeControl === null ? {} : { timeControl }),
      ...(rated === undefined || rated === null ? {} : { rated }),
      ...(rating === undefined || rating === null ? {} : { rating: parseRating(rating) }),
    };
  }

  /** Listed seeks with their seekers' usernames and ratings now (each account read once). */
  private async views(seeks: readonly StoredSeek[], at: string): Promise<LobbySeekView[]> {
    const ids = [...new Set(seeks.map((seek) => seek.account))];
    const read = await Promise.all(
      ids.map(async (id) => {
        const [account, ratings] = await Promise.all([
          this.storage.accounts.getAccount(id),
          this.storage.ratings.get(id),
        ]);
        return [id, { account, ratings }] as const;
      }),
    );
    const byId = new Map(read);
    const views: LobbySeekView[] = [];
    for (const seek of seeks) {
      const entry = byId.get(seek.account);
      // An erased or restricted seeker's seek is not shown (it cannot be taken).
      if (!entry?.account || (entry.account.status ?? 'active') !== 'active') continue;
      const rating = ratingAt(entry.ratings[perfOf(seek)], entry.account.kind, at);
      views.push({
        ...seekView(seek, null),
        username: entry.account.username,
        rating: Math.round(rating.rating),
        provisional: isProvisional(rating),
      });
    }
    return views;
  }

  private async ratingOf(account: StoredAccount, seek: StoredSeek, at: string) {
    const ratings = await this.storage.ratings.get(account.id);
    const rating = ratingAt(ratings[perfOf(seek)], account.kind, at);
    return { rating: Math.round(rating.rating), provisional: isProvisional(rating) };
  }
}

function isTimeControlType(value: string): value is TimeControlType {
  return (TIME_CONTROL_TYPES as readonly string[]).includes(value);
}

function pageLimit(limit: number | null | undefined): number {
  if (limit === undefined || limit === null) return DEFAULT_LOBBY_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > LOBBY_PAGE_MAX) {
    throw new GameError('INVALID_INPUT', `limit must be an integer from 1 to ${LOBBY_PAGE_MAX}`, {
      field: 'limit',
    });
  }
  return limit;
}

/** A page cursor: `<createdAt ms>.<seek id>` (opaque to clients). */
function cursorOf(cursor: LobbyCursor): string {
  return `${Date.parse(cursor.createdAt)}.${cursor.id}`;
}

function parseCursor(text: string): LobbyCursor {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{12})$/.exec(text);
  if (!match)
    throw new GameError('INVALID_INPUT', 'after must be a `next` from a lobby page', { field: 'after' });
  return { createdAt: new Date(Number(match[1])).toISOString(), id: match[2] as string };
}
