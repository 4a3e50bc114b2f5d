import { randomBytes } from 'node:crypto';
import type { AnyEngine, GameRecord } from '../../engines/engine';
import type { AnyKind } from '../../engines/kind';
import { kindIds, KINDS } from '../../engines/kinds';
import type { Options, Side } from '../../engines/types';
import {
  OPEN_APP,
  type GameFilter,
  type GameHead,
  type GameStatus,
  type MoveRecord,
  type Storage,
  type StoredGame,
  type StoredGameSettings,
  type TimeControl,
} from '../../store/store';
import { newSeatToken, type Authenticator } from '../accounts/auth';
import { NO_VACATIONS, startTiming, type Vacations } from '../time/clock';
import { GameError } from '../errors';
import { GameMoves } from './moves';
import { applyMove, engineFor, kindFor, positionFields, withDetails } from './rules';
import { GameTime } from '../time/game-time';
import { toMoveView, type GameHeadView, type GameView, type MoveView } from './view';
import { GameWatchers, type GameUpdate } from './watch';
import { DEFAULT_ABANDON_CLAIM_MS } from './decide';
import { Deadlines } from './timing';
import { GameWriter, type WriteAnswer, type WriteOptions } from './writer';
import { once } from '../idempotency';
import { kindView, startView, type KindView, type StartView } from './kinds';
import { DailyQuota, DEFAULT_QUOTAS, type Quotas } from '../accounts/quotas';
import type { AppUsage } from '../apps/usage';
import type { SeatRating } from '../ratings/results';
import { readPosition, startOf } from './start';
import { settingsFields, settingsOf } from './settings';
import type { CreateGameInput, CreatedGame, CreateOptions, MoveCheck } from './create-input';
import { StateCache } from './state-cache';
import { parseTimeControl, recordTimeControl } from '../time/control';
import { feature } from './tv';
import { assertGameId, decodeCursor, encodeCursor, type ListGamesInput } from './cursors';
export { decodeCursor, encodeCursor, type ListGamesInput } from './cursors';
import { Pools } from '../apps/pools';
import {
  audienceOf,
  ReadChecks,
  gameNotFound,
  listedTo,
  ANONYMOUS,
  visibilityOf,
  type GameAudience,
  type Viewer,
} from './audience';

export type { CreateGameInput, CreatedGame, CreateOptions, MoveCheck } from './create-input';

/** The engine-state cache budget when none is configured: 64 MiB. */
export const DEFAULT_ENGINE_CACHE_BYTES = 64 * 1024 * 1024;

/** Every game use case. Transports call this and nothing below it. */
export class GameService {
  /** Engine states (immutable) of games this node last moved, so a write need not replay history. */
  private readonly states: StateCache;

  /** Pages of moves (see moves.ts). */
  private readonly movePages: GameMoves;

  /** This node's watchers of live games: one subscription per game. */
  private readonly watchers: GameWatchers;

  /** Every write of a game: seats' commands and the service's own (see game/writer.ts). */
  readonly writer: GameWriter;
  /** Timeouts, deadlines, reminders and vacations of this service's games (see ../time/game-time.ts). */
  readonly time: GameTime;
  private readonly gamesPerIp: DailyQuota;
  /** The read check, and the games this node knows anyone may read (see audience.ts). */
  private readonly reads: ReadChecks;

  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly now: () => Date = () => new Date(),
    quotas: Quotas = DEFAULT_QUOTAS,
    /** The budget of the engine-state cache in bytes (ENGINE_CACHE_MB). */
    engineCacheBytes: number = DEFAULT_ENGINE_CACHE_BYTES,
    /** Unlimited games: how long the player to move may stay away before the other may claim. */
    abandonClaimMs: number = DEFAULT_ABANDON_CLAIM_MS,
    /** Which pool an app's games are made in (services.pools). */
    private readonly pools: Pools = new Pools(storage),
    /** Apps' quotas: games their accounts start count against gamesPerDay (see countCreated). */
    private readonly appUsage?: AppUsage,
  ) {
    this.gamesPerIp = new DailyQuota(storage, 'games', quotas.gamesPerIpPerDay);
    this.states = new StateCache(engineCacheBytes);
    this.reads = new ReadChecks(auth);
    this.watchers = new GameWatchers(storage.events, {
      head: (game) => this.headView(game),
      move: (game, move) => toMoveView(engineFor(game.kind), move),
      load: (id) => this.read(id),
    });
    this.movePages = new GameMoves(storage, (id) => this.load(id), engineFor);
    // The writer first, then the time that commits through it: no cycle to close afterwards.
    const deadlines = new Deadlines();
    this.writer = new GameWriter({
      storage,
      auth,
      now,
      engineFor,
      load: (id) => this.load(id),
      states: this.states,
      deadlines,
      abandonClaimMs,
    });
    this.time = new GameTime(storage, now, engineFor, this.writer, deadlines);
  }

  /** The kinds this server hosts. */
  kinds(): string[] {
    return [...kindIds()];
  }

  /** Each hosted kind: seats, options schema, notation summary and rules page. */
  describeKinds(): KindView[] {
    return KINDS.map(kindView);
  }

  /**
   * Where a game of a kind would start with these options, `first` or `position` (the same checks
   * as createGame): for previews and pictures of the start; nothing is stored or counted.
   */
  describeStart(input: Pick<CreateGameInput, 'kind' | 'options' | 'first' | 'position'>): StartView {
    const engine = this.engineFor(input.kind);
    const options = this.parseOptions(engine, input.options);
    return startView(engine, options, startOf(engine, options, input));
  }

  /**
   * Counts `count` games about to be written whose creator is the account `creator`: an app
   * account's count against its app's gamesPerDay (QUOTA_EXCEEDED with `app`); others count nowhere
   * here. Called by each path that starts an account's game, before its write.
   */
  async countCreated(creator: string, count = 1): Promise<void> {
    await this.appUsage?.game(creator, count);
  }

  /** A game held by seat tokens; counts against the address's daily games quota. */
  async createGame(input: CreateGameInput, options: CreateOptions = {}): Promise<CreatedGame> {
    const call = {
      scope: `ip:${options.ip ?? 'unknown'}`,
      key: options.idempotencyKey,
      operation: 'createGame',
      input,
    };
    return once(this.storage.idempotency, call, async () => {
      const created = this.prepareGame(input);
      await this.gamesPerIp.consume(options.ip);
      await this.storage.games.create(created.stored);
      this.time.announce(created.stored);
      await feature(this.storage, created.stored);
      return created.answer;
    });
  }

  private prepareGame(input: CreateGameInput): { stored: StoredGame; answer: CreatedGame } {
    const engine = this.engineFor(input.kind);
    const options = this.parseOptions(engine, input.options);
    const start = startOf(engine, options, input);
    const visibility = visibilityOf(input.visibility);
    const tokens = [newSeatToken(), newSeatToken()] as const;
    const game = this.newGame({
      kind: engine.kind,
      options,
      ...start,
      accounts: [null, null],
      seatTokenHashes: [tokens[0].hash, tokens[1].hash],
      timeControl: parseTimeControl(input.timeControl),
      at: this.now().toISOString(),
      // Held by seat tokens: the open app's, in the open pool.
      audience: visibility === 'public' ? {} : { visibility },
      settings: settingsOf(input.settings),
    });
    return {
      stored: game,
      answer: {
        game: this.writer.view(engine, game),
        seatTokens: tokens.map((t, seat) => ({
          seat,
          name: engine.seatNames[seat] as string,
          token: t.token,
        })),
      },
    };
  }

  /**
   * A new game document, not yet stored (challenges and seeks store it with their own write).
   * Seats bound to accounts have no seat token (an empty hash never matches).
   */
  newGame(spec: {
    /** The game's id (a challenge's game takes the challenge's id); new by default. */
    readonly id?: string;
    readonly kind: string;
    readonly options: Options;
    readonly first: Side;
    /** A game from a position: its canonical position string (see start.ts); `first` must be its side to move. */
    readonly initialPosition?: string;
    readonly accounts: readonly [string | null, string | null];
    readonly seatTokenHashes?: readonly [string, string];
    readonly timeControl: TimeControl;
    readonly at: string;
    /** Correspondence: the vacations of the accounts (see GameTime.vacationsOf). */
    readonly vacations?: Vacations;
    /** A rated game: each seat account's rating when it begins (see ratings/results.ts). */
    readonly rated?: ReadonlyMap<string, SeatRating>;
    readonly audience?: GameAudience;
    /** What it allows, where not the defaults (settings.ts). */
    readonly settings?: StoredGameSettings;
  }): StoredGame {
    const engine = this.engineFor(spec.kind);
    const state =
      spec.initialPosition === undefined
        ? engine.setup(spec.options, spec.first)
        : readPosition(engine, spec.options, spec.initialPosition).state;
    const game: StoredGame = {
      id: spec.id ?? randomBytes(9).toString('base64url'),
      kind: engine.kind,
      rulesVersion: engine.rulesVersion,
      options: spec.options,
      first: spec.first,
      ...(spec.rated ? { rated: true } : {}),
      seats: engine.seatNames.map((name, seat) => {
        const account = spec.accounts[seat] ?? null;
        const rating = account === null ? undefined : spec.rated?.get(account);
        return { seat: seat as Side, name, account, ...(rating ?? {}) };
      }),
      ...spec.audience,
      ...settingsFields(spec.settings),
      seatTokenHashes: spec.seatTokenHashes ?? ['', ''],
      status: 'ongoing',
      ply: 0,
      version: 0,
      drawOffer: null,
      moves: [],
      timeControl: spec.timeControl,
      createdAt: spec.at,
      updatedAt: spec.at,
      ...(spec.initialPosition === undefined ? {} : { initialPosition: spec.initialPosition }),
      ...positionFields(engine, state),
    };
    return { ...game, ...startTiming(game, Date.parse(spec.at), spec.vacations ?? NO_VACATIONS) };
  }

  /**
   * What a new game of an account of `app` records about its audience (audience.ts): its app, the
   * app's pool and `visibility` (an input: INVALID_INPUT unless one of GAME_VISIBILITIES).
   */
  async audience(app: string | undefined, visibility?: unknown): Promise<GameAudience> {
    return audienceOf(this.pools, app ?? OPEN_APP, visibilityOf(visibility));
  }

  /** Validated creation options of a kind (UNKNOWN_GAME_KIND, INVALID_INPUT). */
  parseOptions(engine: AnyEngine, input: unknown): Options {
    const options = engine.parseOptions(input ?? {});
    if (!options.ok) throw new GameError('INVALID_INPUT', options.error.message, { field: 'options' });
    return options.value;
  }

  /** The engine of a kind this server hosts (UNKNOWN_GAME_KIND otherwise). */
  engineFor(kind: string): AnyEngine {
    return this.kindFor(kind).engine;
  }

  /** The descriptor of a kind this server hosts (UNKNOWN_GAME_KIND otherwise). */
  kindFor(kind: string): AnyKind {
    return kindFor(kind);
  }

  /** The public view of a stored game (moves a store compacted get their details back). */
  view(game: StoredGame): GameView {
    const engine = this.engineFor(game.kind);
    return this.writer.view(engine, withDetails(engine, game));
  }

  /** The public view of a game without its moves: O(1) in the length of the game. */
  headView(game: GameHead): GameHeadView {
    return this.writer.headView(this.engineFor(game.kind), game);
  }

  /** The public view of one move of `game`. */
  moveView(game: GameHead, move: MoveRecord): MoveView {
    return toMoveView(this.engineFor(game.kind), move);
  }

  /** A game `viewer` may read (GAME_NOT_FOUND otherwise, as for a missing one: see audience.ts). */
  async getGame(id: string, viewer: Viewer = ANONYMOUS): Promise<GameView> {
    return this.view(await this.readable(id, viewer));
  }

  /** Reads a game `viewer` may read: GAME_NOT_FOUND for a missing one and for one it may not read. */
  async readable(id: string, viewer: Viewer): Promise<StoredGame> {
    const game = await this.load(id);
    await this.reads.check(game, viewer);
    return game;
  }

  /**
   * Refuses (GAME_NOT_FOUND) a viewer who may not read the game, without reading it when this node
   * knows it is not private (the reads that cost O(page) stay so).
   */
  private async checkReadable(id: string, viewer: Viewer): Promise<void> {
    if (!this.reads.known(id)) await this.readable(id, viewer);
  }

  /**
   * A page of a game's moves, oldest first: those after ply `after` (default 0), at most `limit`
   * (1–500, default 100). `next` is the `after` of the next page; null on the last one. O(limit),
   * whatever the length of the game (a game whose stored moves lost their details is replayed).
   */
  async moves(
    id: string,
    input: { readonly after?: number; readonly limit?: number } = {},
    viewer: Viewer = ANONYMOUS,
  ): Promise<{ items: MoveView[]; next: number | null }> {
    assertGameId(id);
    await this.checkReadable(id, viewer);
    return this.movePages.page(id, input);
  }

  /**
   * A page of the listings. Without `account`: the public listings (only public games of the open
   * pool are in them: see publiclyListed). With it: the account's games that `viewer` may see listed
   * (its public games; unlisted and private ones only to those who may read them privately), so a
   * page may hold fewer than `limit` games.
   */
  async listGames(
    input: ListGamesInput,
    viewer: Viewer = ANONYMOUS,
  ): Promise<{ items: GameView[]; next: string | null }> {
    const filter: { kind?: GameFilter['kind']; status?: GameStatus; account?: string } = {};
    if (input.kind !== undefined) filter.kind = this.engineFor(input.kind).kind;
    if (input.account !== undefined) filter.account = input.account.toLowerCase();
    if (input.status !== undefined) {
      if (input.status !== 'ongoing' && input.status !== 'finished') {
        throw new GameError('INVALID_INPUT', `status must be ongoing or finished, not ${input.status}`);
      }
      filter.status = input.status;
    }
    const limit = input.limit ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new GameError('INVALID_INPUT', 'limit must be a whole number from 1 to 100');
    }
    const before = input.after === undefined ? undefined : decodeCursor(input.after);
    if (filter.account !== undefined && !(await this.pools.readerSees(this.auth, viewer, filter.account)))
      return { items: [], next: null };
    const page = await this.storage.games.list(filter, limit, before);
    const items = filter.account === undefined ? page.items : await listedTo(this.auth, page.items, viewer);
    return {
      items: items.map((g) => this.view(g)),
      next: page.next === null ? null : encodeCursor(page.next),
    };
  }

  async legalMoves(id: string, viewer: Viewer = ANONYMOUS): Promise<readonly string[]> {
    return (await this.readable(id, viewer)).legalMoves;
  }

  /** What `move` would do now, without storing anything. */
  async validateMove(id: string, move: string, viewer: Viewer = ANONYMOUS): Promise<MoveCheck> {
    const game = await this.readable(id, viewer);
    const engine = this.engineFor(game.kind);
    const state = this.writer.restore(engine, game);
    const { next, notation, details } = applyMove(engine, game, state, move);
    const after = positionFields(engine, next);
    const view = this.writer.headView(engine, {
      ...game,
      ...after,
      status: after.outcome ? 'finished' : 'ongoing',
    });
    return {
      move: notation,
      position: after.position,
      details,
      view: {
        board: view.board,
        legalMoves: view.legalMoves,
        toMove: view.toMove,
        toMoveName: view.toMoveName,
        result: view.result,
        status: view.status,
      },
    };
  }

  /** Plays `move` for the caller's seat: the whole game after it (see `play` for the slim answer). */
  async submitMove(id: string, move: string, write: WriteOptions): Promise<GameView> {
    return (await this.play(id, move, write)).game;
  }

  /** Plays `move` for the caller's seat: the new head and the move, the whole game on demand. */
  async play(id: string, move: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.writer.apply(id, { type: 'move', move }, write);
  }

  /** The game's standard text record (PDN, PGN-like) from its engine. */
  async exportGame(
    id: string,
    viewer: Viewer = ANONYMOUS,
  ): Promise<{ text: string; kind: string; mediaType: string }> {
    const game = await this.readable(id, viewer);
    const engine = this.engineFor(game.kind);
    if (!engine.exportRecord) throw new GameError('NOT_FOUND', `No text export for ${game.kind}`);
    const record: GameRecord = {
      id: game.id,
      options: game.options,
      first: game.first,
      ...(game.initialPosition === undefined ? {} : { initialPosition: game.initialPosition }),
      moves: game.moves.map((m) => m.notation),
      ...(game.outcome ? { outcome: game.outcome } : {}),
      timeControl: recordTimeControl(game.timeControl),
      players: [game.seats[0]?.account ?? engine.seatNames[0], game.seats[1]?.account ?? engine.seatNames[1]],
      startedAt: game.createdAt,
    };
    return {
      text: engine.exportRecord(record),
      kind: game.kind,
      mediaType: this.kindFor(game.kind).record.mediaType,
    };
  }

  /**
   * Live updates of one game: the current game first, then every later version in order, each
   * built once per node however many watch (see GameWatchers). `onError` ends the watch when
   * versions were lost on the way to this node (UPDATES_LOST) or the store fails. Returns the
   * unsubscribe function.
   */
  async watch(
    id: string,
    listener: (update: GameUpdate) => void,
    onError?: (error: GameError) => void,
    viewer: Viewer = ANONYMOUS,
  ): Promise<() => Promise<void>> {
    assertGameId(id);
    await this.checkReadable(id, viewer);
    return this.watchers.watch(id, listener, onError);
  }

  /** Reads a game; GAME_NOT_FOUND / INVALID_INPUT for unknown or malformed ids. */
  private async load(id: string): Promise<StoredGame> {
    assertGameId(id);
    const game = await this.read(id);
    if (!game) throw gameNotFound(id);
    return game;
  }

  /** Reads a game, every move with its details (see rules.ts); undefined for an unknown one. */
  private async read(id: string): Promise<StoredGame | undefined> {
    const game = await this.storage.games.get(id);
    if (!game) return undefined;
    this.movePages.remember(game);
    return withDetails(this.engineFor(game.kind), game);
  }
}
