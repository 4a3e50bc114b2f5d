import { createHash, randomBytes } from 'node:crypto';
import {
  appOfAccountId,
  type BulkPair,
  type BulkRefusal,
  type GameLimit,
  type Storage,
  type StoredAccount,
  type StoredBulk,
  type StoredGame,
  type TokenScope,
} from '../../store/store';
import { requireScope, type Authenticator, type Credential } from '../accounts/auth';
import type { Pools } from '../apps/pools';
import { GameError, toGameError } from '../errors';
import { refuseRestricted } from '../accounts/restricted';
import type { GameService } from '../game/service';
import { bulkView as view, type BulkView } from './bulk-view';
import { gameLimits, tooManyGames, type Quotas } from '../accounts/quotas';
import { seatRatings } from '../ratings/results';
import { startOf } from '../game/start';
import { parseTimeControl, type TimeControlInput } from '../time/control';
import { feature } from '../game/tv';
import { slimNotice } from '../delivery/feed-events';

// Bulk pairings (#18, as lichess's POST /api/bulk-pairing): a client's backend makes up to 500 games
// between pairs of accounts in one all-or-nothing call, with each player's consent given by its own
// API token. The steps and what a crash at each leaves: docs/data-model.md, "Bulk pairings".

export const MAX_BULK_PAIRS = 500;
/** Pairs whose tokens are looked up at once; the lookups stop after the batch with a bad token. */
export const BULK_LOOKUP_BATCH = 25;
/** How far ahead a bulk may be scheduled. */
const MAX_SCHEDULE_MS = 7 * 24 * 60 * 60 * 1000;
const BULK_ID = /^[A-Za-z0-9_-]{12}$/;
/** Games stored at once while a bulk's games are created. */
const CREATE_BATCH = 100;

export interface CreateBulkInput {
  /** Per game, the API tokens of its two players (first seat, second seat); each needs challenge:write. */
  readonly pairs: ReadonlyArray<readonly string[]>;
  readonly kind: string;
  readonly options?: unknown;
  readonly timeControl?: TimeControlInput | null;
  readonly position?: string | null;
  readonly rated?: boolean | null;
  /** When the games are created (ISO; at most 7 days ahead); absent or past: now. */
  readonly startAt?: string | null;
}

export interface BulkOptions {
  /** How long a node may take over a bulk's step before another node's sweep takes it over (ms). */
  readonly leaseMs?: number;
  /** How often every node looks for due bulks: scheduled ones, and steps left by a node that died (ms). */
  readonly sweepMs?: number;
  /** Told of a sweep that failed. */
  readonly onError?: (error: unknown) => void;
}

/** The id of the game of a bulk's pair `index`: fixed by the bulk, so creating it again finds it. */
export function bulkGameId(bulk: string, index: number): string {
  return createHash('sha256').update(`bulk:${bulk}:${index}`).digest('base64url').slice(0, 12);
}

export class BulkService {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private readonly leaseMs: number;

  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly now: () => Date,
    private readonly quotas: Quotas,
    private readonly options: BulkOptions,
    private readonly pools: Pools,
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  /** Makes the bulk: every game, or (an error saying which pair and why) none. */
  async create(credential: Credential, input: CreateBulkInput): Promise<BulkView> {
    const { account: creator } = await this.auth.requireAccount(credential, 'challenge:bulk');
    refuseRestricted(creator);
    const { bulk, limits } = await this.prepare(creator, input);
    await this.games.countCreated(creator.id, bulk.pairs.length);
    const at = this.now().getTime();
    await this.storage.bulks.begin(bulk, at + this.leaseMs);
    const reserved = await Promise.all(
      bulk.pairs.map((pair, index) => this.storage.games.reserve(pair.game, limits[index] ?? [])),
    );
    const full = reserved.findIndex((r) => r.status !== 'created');
    if (full >= 0) {
      const result = reserved[full];
      const account = result?.status === 'too-many-games' ? result.account : '';
      const refused = tooManyGames(await this.accountOf(account), this.quotas);
      const error = new GameError(refused.code, `Pair ${full}: ${refused.message}`, {
        ...refused.details,
        index: full,
      });
      await this.storage.bulks.refuse(bulk.id, refusalOf(error), this.now().getTime());
      await this.release(bulk);
      throw error;
    }
    const committed = await this.storage.bulks.commit(bulk.id, this.now().getTime(), at + this.leaseMs);
    if (!committed) {
      // Too slow: a sweep took the bulk as abandoned and refused it; give the places back too.
      await this.release(bulk);
      throw new GameError('STORE_UNAVAILABLE', 'The bulk pairing took too long and was refused; retry');
    }
    if (committed.state !== 'creating') return view(committed);
    await this.createGames(committed);
    return view((await this.storage.bulks.get(bulk.id)) ?? committed);
  }

  async get(credential: Credential, id: string): Promise<BulkView> {
    return view(await this.mine(credential, id));
  }

  async list(
    credential: Credential,
    page: { limit?: number; before?: number } = {},
  ): Promise<{ items: BulkView[]; next: number | null }> {
    const { account } = await this.auth.requireAccount(credential);
    const limit = Math.min(100, Math.max(1, Math.floor(page.limit ?? 20)));
    const found = await this.storage.bulks.list(account.id, limit, page.before);
    return { items: found.items.map(view), next: found.next };
  }

  /** Cancels a scheduled bulk before its games are created; its places are given back. */
  async cancel(credential: Credential, id: string): Promise<BulkView> {
    const before = await this.mine(credential, id, 'challenge:bulk');
    const bulk = await this.storage.bulks.cancel(id, this.now().getTime());
    if (!bulk) {
      const state = (await this.storage.bulks.get(id))?.state ?? before.state;
      throw new GameError('BULK_NOT_CANCELABLE', `Bulk pairing ${id} is ${state}, no longer scheduled`, {
        state,
      });
    }
    await this.release(bulk);
    await this.storage.bulks.settle(id);
    return view(bulk);
  }

  /** Sweeps due bulks every `sweepMs` (every node: whichever takes a bulk's lease works on it). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .then(() => undefined)
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => (this.sweeping = undefined));
    }, this.options.sweepMs ?? 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /** One pass: finishes what is due (a few bulks at a time, so a pass stays short). */
  async sweep(): Promise<number> {
    const at = this.now().getTime();
    const due = await this.storage.bulks.claimDue(at, at + this.leaseMs, 2);
    for (const bulk of due) {
      if (bulk.state === 'reserving') {
        const refusal = {
          code: 'INTERRUPTED',
          message: 'The node making the bulk pairing stopped',
          details: {},
        };
        // Committed meanwhile (its node was slow, not dead): its places are its games'.
        if (!(await this.storage.bulks.refuse(bulk.id, refusal, this.now().getTime()))) continue;
      }
      if (bulk.state === 'creating') {
        await this.createGames(bulk);
      } else {
        await this.release(bulk);
        await this.storage.bulks.settle(bulk.id);
      }
    }
    return due.length;
  }

  /** Creates the bulk's games (those that exist already are left), then marks it created. */
  private async createGames(bulk: StoredBulk): Promise<void> {
    const at = this.now().toISOString();
    for (let from = 0; from < bulk.pairs.length; from += CREATE_BATCH) {
      const batch = bulk.pairs.slice(from, from + CREATE_BATCH);
      await Promise.all(batch.map((pair) => this.createGame(bulk, pair, at)));
    }
    await this.storage.bulks.finish(bulk.id, this.now().getTime());
  }

  private async createGame(bulk: StoredBulk, pair: BulkPair, at: string): Promise<void> {
    const accounts = pair.accounts;
    const game: StoredGame = {
      ...this.games.newGame({
        id: pair.game,
        kind: bulk.kind,
        options: bulk.options,
        first: bulk.first,
        ...(bulk.initialPosition === undefined ? {} : { initialPosition: bulk.initialPosition }),
        accounts,
        timeControl: bulk.timeControl,
        at,
        ...(bulk.timeControl.type === 'correspondence'
          ? { vacations: await this.games.time.vacationsFor(accounts) }
          : {}),
        ...(bulk.rated ? { rated: await seatRatings(this.storage, accounts, bulk, at) } : {}),
        // The creator's app (its players are of its pool).
        audience: await this.games.audience(appOfAccountId(bulk.creator)),
      }),
      source: { type: 'bulk', id: bulk.id },
    };
    const notice = slimNotice({
      to: accounts,
      type: 'game.started',
      at,
      data: { game: this.games.headView(game) },
    });
    try {
      // The places were reserved: no limits now (its relay entry counts it again, harmlessly).
      await this.storage.games.create(game, [notice]);
    } catch (error) {
      // Created before (by a node that died, or another node meanwhile: the create refuses an id
      // that exists, and the game is kept as it was); anything else is retried by the sweep.
      if (!(await this.storage.games.get(pair.game))) throw error;
      return;
    }
    this.games.time.announce(game);
    await feature(this.storage, game);
  }

  private async release(bulk: StoredBulk): Promise<void> {
    await Promise.all(bulk.pairs.map((pair) => this.storage.games.release(pair.game, pair.accounts)));
  }

  private async mine(credential: Credential, id: string, ...scopes: TokenScope[]): Promise<StoredBulk> {
    const { account } = await this.auth.requireAccount(credential, ...scopes);
    if (!BULK_ID.test(id)) throw new GameError('INVALID_INPUT', `Malformed bulk id "${id}"`, { field: 'id' });
    const bulk = await this.storage.bulks.get(id);
    if (!bulk || bulk.creator !== account.id) throw notFound(id);
    return bulk;
  }

  private async accountOf(id: string): Promise<StoredAccount> {
    const account = await this.storage.accounts.getAccount(id);
    if (!account) throw new GameError('ACCOUNT_NOT_FOUND', `No account ${id}`);
    return account;
  }

  /** The bulk as asked, every token checked: nothing is stored before it is valid. */
  private async prepare(
    creator: StoredAccount,
    input: CreateBulkInput,
  ): Promise<{ bulk: StoredBulk; limits: GameLimit[][] }> {
    const pairs: unknown = input.pairs;
    if (!Array.isArray(pairs) || pairs.length === 0 || pairs.length > MAX_BULK_PAIRS) {
      throw new GameError('INVALID_INPUT', `pairs must list 1 to ${MAX_BULK_PAIRS} pairs of API tokens`, {
        field: 'pairs',
        max: MAX_BULK_PAIRS,
      });
    }
    const engine = this.games.engineFor(input.kind);
    const options = this.games.parseOptions(engine, input.options);
    const start = startOf(engine, options, input);
    const timeControl = parseTimeControl(input.timeControl);
    const rated = input.rated === true;
    if (rated && start.initialPosition !== undefined) {
      throw new GameError('INVALID_INPUT', 'A game from a position is never rated', { field: 'rated' });
    }
    const now = this.now();
    const startAt = this.startAt(input.startAt, now);
    const tokens = (pairs as unknown[]).map((pair, index) => {
      if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((t) => typeof t === 'string')) {
        throw new GameError('INVALID_INPUT', `pairs[${index}] must be two API tokens`, {
          field: 'pairs',
          index,
        });
      }
      return pair as [string, string];
    });
    // A batch of pairs at a time, stopping at the first batch with a bad token (its first bad
    // token, in order, is the one named): a refused bulk costs at most a batch of lookups more.
    const players: Array<readonly [StoredAccount, StoredAccount]> = [];
    // Every player is of the creator's pool: another pool's account answers as a missing one.
    const pool = await this.pools.ofAccount(creator.id);
    for (let from = 0; from < tokens.length; from += BULK_LOOKUP_BATCH) {
      const batch = tokens.slice(from, from + BULK_LOOKUP_BATCH);
      const settled = await Promise.allSettled(
        batch.flatMap(([a, b], i) => [this.player(a, from + i, 0, pool), this.player(b, from + i, 1, pool)]),
      );
      const accounts = settled.map((result) => {
        if (result.status === 'rejected') throw result.reason;
        return result.value;
      });
      for (let i = 0; i < accounts.length; i += 2) {
        players.push([accounts[i] as StoredAccount, accounts[i + 1] as StoredAccount]);
      }
    }
    players.forEach((pair) => refuseRestricted(...pair));
    const seen = new Map<string, number>();
    players.forEach((pair, index) =>
      pair.forEach(({ id: account }, seat) => {
        const first = seen.get(account);
        if (first !== undefined) {
          throw new GameError('BULK_DUPLICATE_ACCOUNT', `Pair ${index}: ${account} is in the bulk twice`, {
            index,
            seat,
            account,
            firstIndex: first,
          });
        }
        seen.set(account, index);
      }),
    );
    const id = randomBytes(9).toString('base64url');
    const bulk: StoredBulk = {
      id,
      creator: creator.id,
      kind: engine.kind,
      options,
      timeControl,
      rated,
      ...(start.initialPosition === undefined ? {} : { initialPosition: start.initialPosition }),
      first: start.first,
      pairs: players.map(([a, b], index) => ({
        accounts: [a.id, b.id] as const,
        game: bulkGameId(id, index),
      })),
      startAt: startAt.toISOString(),
      createdAt: now.toISOString(),
      state: 'reserving',
      updatedAt: now.toISOString(),
    };
    // The caps of each pair's accounts, as read with their tokens.
    return { bulk, limits: players.map((pair) => gameLimits(pair, this.quotas)) };
  }

  /** The account of a player's token (which must be valid and hold challenge:write). */
  private async player(token: string, index: number, seat: number, pool: string): Promise<StoredAccount> {
    let caller;
    try {
      caller = await this.auth.identify({ token });
    } catch (error) {
      const cause = toGameError(error);
      if (cause.code === 'STORE_UNAVAILABLE') throw cause;
      throw new GameError('BULK_TOKEN_INVALID', `Pair ${index}, seat ${seat}: ${cause.message}`, {
        index,
        seat,
        reason: cause.code,
      });
    }
    if (caller.kind !== 'account') {
      throw new GameError('BULK_TOKEN_INVALID', `Pair ${index}, seat ${seat}: not an account API token`, {
        index,
        seat,
        reason: 'UNAUTHENTICATED',
      });
    }
    if (!(await this.pools.sees(pool, caller.account.id))) {
      throw new GameError(
        'ACCOUNT_NOT_FOUND',
        `Pair ${index}, seat ${seat}: no account ${caller.account.id}`,
        {
          index,
          seat,
        },
      );
    }
    try {
      requireScope(caller, 'challenge:write');
    } catch {
      throw new GameError(
        'BULK_TOKEN_SCOPE',
        `Pair ${index}, seat ${seat}: the token lacks challenge:write`,
        {
          index,
          seat,
          required: ['challenge:write'],
          granted: caller.token.scopes,
        },
      );
    }
    return caller.account;
  }

  private startAt(input: string | null | undefined, now: Date): Date {
    if (input === undefined || input === null) return now;
    const ms = Date.parse(input);
    if (!Number.isFinite(ms) || ms > now.getTime() + MAX_SCHEDULE_MS) {
      throw new GameError('INVALID_INPUT', 'startAt must be a date-time at most 7 days ahead', {
        field: 'startAt',
      });
    }
    return new Date(Math.max(ms, now.getTime()));
  }
}

function notFound(id: string): GameError {
  return new GameError('BULK_NOT_FOUND', `No bulk pairing ${id} of yours`);
}

function refusalOf(error: GameError): BulkRefusal {
  return { code: error.code, message: error.message, details: error.details };
}
