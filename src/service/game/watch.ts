import type { GameChange, GameEventBus, GameHead, MoveRecord, StoredGame } from '../../store/store';
import { GameError, toGameError } from '../errors';
import {
  LIVE_MOVES,
  withMoves,
  type GameHeadView,
  type GameView,
  type LiveGameView,
  type MoveView,
  type MovesSource,
} from './view';

// Live game updates for every watcher on this node: one bus subscription per game, each message
// parsed and its head turned into a view once, then handed to every watcher. A change costs O(1) in
// the length of the game: the full view (every move) is built only when a watcher asks for it
// (a stream's first message, a client that wants whole documents), once per version and node.

/** How the watchers of a node see games (GameService). */
export interface GameViews {
  /** The view of a version without its moves. */
  head(game: GameHead): GameHeadView;
  /** The view of one move of `game`. */
  move(game: GameHead, move: MoveRecord): MoveView;
  /** The game as stored, every move with its details; undefined for an unknown game. */
  load(id: string): Promise<StoredGame | undefined>;
}

/** A game's moves as this node knows them: appended as versions arrive, each viewed once when asked. */
class MoveHistory {
  private readonly views: Array<MoveView | undefined> = [];

  constructor(
    private readonly records: MoveRecord[],
    private readonly toView: (move: MoveRecord) => MoveView,
  ) {}

  get length(): number {
    return this.records.length;
  }

  append(move: MoveRecord): void {
    this.records.push(move);
  }

  /**
   * A new history of the first `count` moves (a takeback dropped the others), sharing the views
   * built so far. This one is left as it is: the updates made with it keep their moves.
   */
  prefix(count: number): MoveHistory {
    const history = new MoveHistory(this.records.slice(0, count), this.toView);
    for (let index = 0; index < count; index++) history.views[index] = this.views[index];
    return history;
  }

  /** The view of move `index` (0 first). */
  view(index: number): MoveView {
    let view = this.views[index];
    if (view === undefined) {
      view = this.toView(this.records[index] as MoveRecord);
      this.views[index] = view;
    }
    return view;
  }

  /** The views of moves `from` (inclusive) to `to` (exclusive). */
  slice(from: number, to: number): MoveView[] {
    const views: MoveView[] = [];
    for (let index = from; index < to; index++) views.push(this.view(index));
    return views;
  }
}

/** One version of a game, as every watcher on this node gets it. */
export class GameUpdate implements MovesSource {
  private readonly encodings = new Map<string, unknown>();
  private full: GameView | undefined;
  private live: LiveGameView | undefined;

  constructor(
    /** The version without its moves (built once per node). */
    readonly head: GameHeadView,
    /** The move that made this version; null for a version no move made (or the first one read). */
    readonly move: MoveView | null,
    private readonly history: MoveHistory,
    /** How many moves this version has (the history may hold later ones). */
    private readonly count: number,
    /**
     * Moves were taken back: this version has fewer than the one before, so streams send it whole
     * (a watcher's move list shrinks to this one's).
     */
    readonly takenBack = false,
  ) {}

  get version(): number {
    return this.head.version;
  }

  /** The whole game, every move included: built the first time a watcher asks, O(moves). */
  get view(): GameView {
    this.full ??= withMoves(this.head, this.history.slice(0, this.count));
    return this.full;
  }

  /** The head with the moves on demand (GraphQL resolves `moves` and `lastMove` from it). */
  get root(): LiveGameView {
    this.live ??= { ...this.head, [LIVE_MOVES]: this };
    return this.live;
  }

  moves(after = 0, limit = this.count): readonly MoveView[] {
    // Every move: the whole view's list, built once per version and shared by every watcher.
    if (after === 0 && limit >= this.count) return this.view.moves;
    const from = Math.min(after, this.count);
    return this.history.slice(from, Math.min(this.count, from + limit));
  }

  get lastMove(): MoveView | null {
    return this.count === 0 ? null : this.history.view(this.count - 1);
  }

  /**
   * `encode(this)`, computed once per `format` and shared by every watcher of this node (a format
   * names one encoding: the same `format` always comes with the same `encode`).
   */
  encoded<T>(format: string, encode: (update: GameUpdate) => T): T {
    if (this.encodings.has(format)) return this.encodings.get(format) as T;
    const encoding = encode(this);
    this.encodings.set(format, encoding);
    return encoding;
  }
}

interface Watcher {
  readonly deliver: (update: GameUpdate) => void;
  readonly fail: (error: GameError) => void;
}

/** The error that ends the watchers of a game when versions of it were lost on the way to this node. */
export function updatesLost(id: string, seen: number, current: number): GameError {
  return new GameError(
    'UPDATES_LOST',
    `This server lost its connection to the store and missed versions ${seen + 1}–${current} of game ${id}; ` +
      'watch again to get the game as it is now',
    { lastVersion: seen, currentVersion: current },
  );
}

/** One game's watchers on this node and its one bus subscription. */
class GameChannel {
  /** Watchers that have had the game (their first update) and get every later version. */
  readonly watchers = new Set<Watcher>();
  /** Watchers joined or joining; the subscription ends when this falls to 0. */
  members = 0;
  latest: GameUpdate | undefined;
  /** The moves as of `latest`: a change from the bus carries only the move it adds. */
  private history: MoveHistory | undefined;
  closed = false;
  /** Versions received from the bus and not yet handled (the chain holds them). */
  private readonly arriving = new Set<number>();
  /** Orders messages and resyncs: each one runs after the previous one is done. */
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => Promise<void>) | undefined;
  readonly ready: Promise<void>;

  constructor(
    readonly id: string,
    bus: GameEventBus,
    private readonly views: GameViews,
    private readonly onClosed: (channel: GameChannel) => void,
  ) {
    this.ready = this.open(bus);
  }

  private async open(bus: GameEventBus): Promise<void> {
    // Subscribe before reading, so that no update between the read and the subscription is lost;
    // the chain holds messages until the read is done.
    let loaded!: () => void;
    this.chain = new Promise<void>((resolve) => (loaded = resolve));
    try {
      this.unsubscribe = await bus.subscribe(
        this.id,
        (change) => {
          this.arriving.add(change.game.version);
          this.enqueue(() => this.receive(change));
        },
        (flush) => this.enqueue(() => this.resync(flush)),
      );
      const game = await this.views.load(this.id);
      if (!game) throw new GameError('GAME_NOT_FOUND', `No game with id ${this.id}`);
      this.history = this.historyOf(game);
      this.latest = new GameUpdate(this.views.head(game), null, this.history, this.history.length);
    } catch (error) {
      await this.close();
      throw error;
    } finally {
      loaded();
    }
  }

  private enqueue(step: () => void | Promise<void>): void {
    this.chain = this.chain
      .then(() => (this.closed ? undefined : step()))
      .catch((error: unknown) => this.fail(toGameError(error)));
  }

  private get version(): number {
    return (this.latest as GameUpdate).version;
  }

  /** A message from the bus. Versions come one at a time and in order; a jump means some were lost. */
  private receive(change: GameChange): void {
    const version = change.game.version;
    this.arriving.delete(version);
    if (version <= this.version) return;
    if (version > this.version + 1) return this.fail(updatesLost(this.id, this.version, version));
    // The successor of the version this node holds: its moves are those plus the change's move,
    // or after a takeback (its ply below the moves held) the first `ply` of them.
    let history = this.history as MoveHistory;
    const takenBack = change.game.ply < history.length;
    if (takenBack) this.history = history = history.prefix(change.game.ply);
    if (change.move) history.append(change.move);
    const move = change.move ? history.view(history.length - 1) : null;
    this.publish(new GameUpdate(this.views.head(change.game), move, history, history.length, takenBack));
  }

  private historyOf(game: StoredGame): MoveHistory {
    return new MoveHistory([...game.moves], (move) => this.views.move(game, move));
  }

  /** The bus was cut off for a while: what the store holds now tells whether anything was missed. */
  private async resync(flush: () => Promise<void>): Promise<void> {
    const game = await this.views.load(this.id);
    if (!game || this.closed || game.version <= this.version) return;
    if (game.version === this.version + 1) {
      const before = (this.history as MoveHistory).length;
      // The history is rebuilt from the store's: older updates keep the one they were made with.
      this.history = this.historyOf(game);
      const move = game.moves.length > before ? this.history.view(game.moves.length - 1) : null;
      const takenBack = game.moves.length < before;
      return this.publish(
        new GameUpdate(this.views.head(game), move, this.history, game.moves.length, takenBack),
      );
    }
    // Versions published since the connection came back are on their way (queued behind this
    // step once flushed); only those published while it was down are lost.
    await flush();
    for (let version = this.version + 1; version <= game.version; version++) {
      if (!this.arriving.has(version)) return this.fail(updatesLost(this.id, this.version, game.version));
    }
  }

  private publish(update: GameUpdate): void {
    this.latest = update;
    for (const watcher of [...this.watchers]) {
      try {
        watcher.deliver(update);
      } catch {
        // One watcher's failure (a closed socket) must not keep the others from their update.
      }
    }
  }

  /** Ends every watcher with `error` and the subscription with them (new watchers start afresh). */
  private fail(error: GameError): void {
    if (this.closed) return;
    const watchers = [...this.watchers];
    void this.close();
    for (const watcher of watchers) watcher.fail(error);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watchers.clear();
    this.onClosed(this);
    await this.unsubscribe?.();
  }
}

/** Every game watched on this node. */
export class GameWatchers {
  private readonly channels = new Map<string, GameChannel>();

  constructor(
    private readonly bus: GameEventBus,
    private readonly views: GameViews,
  ) {}

  /**
   * The game now, then every later version in order, to `deliver`; `fail` ends the watch (versions
   * lost on the way to this node: UPDATES_LOST; the store failing: STORE_UNAVAILABLE). Rejects with
   * GAME_NOT_FOUND before delivering anything. Returns the function that stops the watch.
   */
  async watch(
    id: string,
    deliver: (update: GameUpdate) => void,
    fail: (error: GameError) => void = () => undefined,
  ): Promise<() => Promise<void>> {
    let channel = this.channels.get(id);
    if (!channel || channel.closed) {
      channel = new GameChannel(id, this.bus, this.views, (closed) => {
        if (this.channels.get(closed.id) === closed) this.channels.delete(closed.id);
      });
      this.channels.set(id, channel);
    }
    const joined = channel;
    joined.members++;
    let left = false;
    const leave = async () => {
      if (left) return;
      left = true;
      joined.watchers.delete(watcher);
      if (--joined.members === 0) await joined.close();
    };
    const watcher: Watcher = { deliver, fail: (error) => void leave().then(() => fail(error)) };
    try {
      await joined.ready;
    } catch (error) {
      await leave();
      throw error;
    }
    if (joined.closed || !joined.latest) {
      // The channel failed between its first read and this watcher's turn: start again.
      await leave();
      return this.watch(id, deliver, fail);
    }
    // In one step: the game as this node has it now, then every later version.
    joined.watchers.add(watcher);
    deliver(joined.latest);
    return leave;
  }

  /** How many games this node has a subscription for (for tests and metrics). */
  get size(): number {
    return this.channels.size;
  }
}
