import type { GameChange, GameEventBus, GameStore, StoredGame } from '../store/store';
import { GameError, toGameError } from './errors';
import type { GameView } from './game-view';

// Live game updates for every watcher on this node: one bus subscription per game, each message
// parsed and turned into a view once, then handed to every watcher (and encoded once per format).

/** One version of a game, as every watcher on this node gets it. */
export class GameUpdate {
  private readonly encodings = new Map<string, string>();

  constructor(readonly view: GameView) {}

  get version(): number {
    return this.view.version;
  }

  /** `encode(view)`, computed once per `format` and shared by every watcher of this node. */
  encoded(format: string, encode: (view: GameView) => string): string {
    let text = this.encodings.get(format);
    if (text === undefined) {
      text = encode(this.view);
      this.encodings.set(format, text);
    }
    return text;
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
  /** The game as of `latest`, moves included: a change from the bus carries only the move it adds. */
  private game: StoredGame | undefined;
  closed = false;
  /** Versions received from the bus and not yet handled (the chain holds them). */
  private readonly arriving = new Set<number>();
  /** Orders messages and resyncs: each one runs after the previous one is done. */
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => Promise<void>) | undefined;
  readonly ready: Promise<void>;

  constructor(
    readonly id: string,
    private readonly store: GameStore,
    bus: GameEventBus,
    private readonly toView: (game: StoredGame) => GameView,
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
      const game = await this.store.get(this.id);
      if (!game) throw new GameError('GAME_NOT_FOUND', `No game with id ${this.id}`);
      this.game = game;
      this.latest = new GameUpdate(this.toView(game));
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
    // The successor of the version this node holds: its moves are those plus the change's move.
    const before = (this.game as StoredGame).moves;
    this.publish({ ...change.game, moves: change.move ? [...before, change.move] : before });
  }

  /** The bus was cut off for a while: what the store holds now tells whether anything was missed. */
  private async resync(flush: () => Promise<void>): Promise<void> {
    const game = await this.store.get(this.id);
    if (!game || this.closed || game.version <= this.version) return;
    if (game.version === this.version + 1) return this.publish(game);
    // Versions published since the connection came back are on their way (queued behind this
    // step once flushed); only those published while it was down are lost.
    await flush();
    for (let version = this.version + 1; version <= game.version; version++) {
      if (!this.arriving.has(version)) return this.fail(updatesLost(this.id, this.version, game.version));
    }
  }

  private publish(game: StoredGame): void {
    this.game = game;
    const update = new GameUpdate(this.toView(game));
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
    private readonly store: GameStore,
    private readonly bus: GameEventBus,
    private readonly toView: (game: StoredGame) => GameView,
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
      channel = new GameChannel(id, this.store, this.bus, this.toView, (closed) => {
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
