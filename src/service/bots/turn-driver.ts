import type { FeedEvent, Storage, StoredGame } from '../../store/store';
import { isTurnOf, turnStartOf } from '../../store/store';
import { internalCredential, type Credential } from '../accounts/auth';
import { GameError } from '../errors';
import { gameOfData } from '../delivery/feed-events';
import type { GameView } from '../game/view';
import type { GameService } from '../game/service';

// The turn driver plays for accounts that have an automatic mover (the built-in AI, push-mode bots):
// whenever a version of a game leaves such an account to move, it asks the account's provider for a
// move and plays it through the ordinary write path (GameService.submitMove), as the account, with
// If-Match = that version and an idempotency key made of the game id and the version. So a
// duplicate, a retry or a race between nodes plays nothing twice: at most one move per version.
//
// How it hears of turns, on every node:
// - live: it follows the feed of each registered account (storage.feed.subscribe). Every write that
//   leaves the account to move (a game started, the opponent moved, a draw offer declined) appends
//   an event there, on whichever node made it. Nothing is added to the write path itself.
// - a sweep (every `sweepMs`): the account's my-turn list (storage.clocks.listTurn) — turns whose
//   live event was lost (a bus outage) or whose node died before it played.
// Before computing, a node claims the turn (game id + version) in the idempotency store for
// `leaseMs`, so only one node thinks about a turn at a time; a node that dies holding a claim lets
// it run out and the next sweep anywhere takes the turn over.

/** What a provider is told: the game (with its moves), the moves legal now, and the mover's time. */
export type MoveProvider = (
  game: GameView,
  legalMoves: readonly string[],
  /** Milliseconds left on the mover's clock (realtime) or until its deadline; null: no limit. */
  timeLeftMs: number | null,
  /** The stored game (what the view leaves out, e.g. who an AI game counts against). */
  stored: StoredGame,
) => Promise<string>;

/**
 * Thrown by a provider that will not compute this turn now (the AI pool holds its owner's most
 * turns): the driver frees the turn's claim and reports nothing; the provider (or the next sweep)
 * plays the turn later through consider(). `released` runs once the claim is freed and this
 * node no longer counts the turn as being played: a consider() made before then would find the
 * turn still taken and play nothing, so the provider hands the turn on only from there.
 */
export class TurnDeferred extends Error {
  constructor(readonly released?: () => void) {
    super('The turn waits in its game');
    this.name = 'TurnDeferred';
  }
}

export interface TurnDriverOptions {
  /** Milliseconds between sweeps of the registered accounts' turns; 0: no timer (call sweep()). */
  readonly sweepMs?: number;
  /** How long a node's claim on a turn keeps other nodes off it (default 30 s). */
  readonly leaseMs?: number;
  /** Turns looked at per account per sweep (default 500). */
  readonly sweepLimit?: number;
  /**
   * The sweep leaves turns younger than this to the live path (default 2 s): the node that heard
   * of a turn is on it, and claiming it again from every node each sweep would only cost round trips.
   */
  readonly freshMs?: number;
  /** Told of failures (a provider that threw, a move the write path refused). */
  readonly onError?: (error: unknown, context: { gameId: string; account: string }) => void;
  readonly now?: () => number;
}

/** Refusals that mean the turn is gone (someone played, the game ended): nothing to do. */
const TURN_GONE = new Set([
  'VERSION_CONFLICT',
  'NOT_YOUR_TURN',
  'GAME_OVER',
  'TIMEOUT',
  'GAME_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
]);

interface Mover {
  readonly provider: MoveProvider;
  readonly credential: Credential;
  unsubscribe?: () => Promise<void>;
}

export class TurnDriver {
  private readonly movers = new Map<string, Mover>();
  /** Turns (`id@version`) this node is playing now. */
  private readonly playing = new Map<string, Promise<boolean>>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  private stopped = false;
  private readonly leaseMs: number;
  private readonly now: () => number;

  constructor(
    private readonly storage: Storage,
    private readonly games: GameService,
    private readonly options: TurnDriverOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** The accounts that have an automatic mover on this node. */
  accounts(): string[] {
    return [...this.movers.keys()];
  }

  /** Plays `account`'s turns with `provider` from now on (replaces an earlier provider). */
  async register(account: string, provider: MoveProvider): Promise<void> {
    const id = account.toLowerCase();
    const existing = this.movers.get(id);
    const mover: Mover = { provider, credential: existing?.credential ?? internalCredential(id) };
    if (existing?.unsubscribe) mover.unsubscribe = existing.unsubscribe;
    this.movers.set(id, mover);
    if (!mover.unsubscribe && !this.stopped) {
      mover.unsubscribe = await this.storage.feed.subscribe(
        id,
        (event) => this.onEvent(id, event),
        () => void this.sweepAccount(id).catch((error: unknown) => this.report(error, '', id)),
      );
    }
  }

  /** Stops playing for `account` (a turn being played finishes). */
  async unregister(account: string): Promise<void> {
    const id = account.toLowerCase();
    const mover = this.movers.get(id);
    this.movers.delete(id);
    await mover?.unsubscribe?.();
  }

  /** Starts the periodic sweep (if `sweepMs` > 0). */
  start(): void {
    const ms = this.options.sweepMs ?? 0;
    if (ms <= 0 || this.timer || this.stopped) return;
    this.timer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = this.sweep()
        .catch((error: unknown) => {
          this.report(error, '', '');
          return 0;
        })
        .finally(() => (this.sweeping = undefined));
    }, ms).unref();
  }

  /** Stops sweeping and following feeds; resolves once the turns being played are done. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    const movers = [...this.movers.values()];
    await Promise.all(movers.map((m) => m.unsubscribe?.().catch(() => undefined)));
    for (const m of movers) delete m.unsubscribe;
    await Promise.allSettled([...this.playing.values(), ...(this.sweeping ? [this.sweeping] : [])]);
  }

  /** One sweep over every registered account's turns; resolves with the moves played. */
  async sweep(): Promise<number> {
    let played = 0;
    for (const account of this.accounts()) played += await this.sweepAccount(account);
    return played;
  }

  /** Plays the account's turn in `gameId` if it has one; true when this call played a move. */
  async consider(gameId: string, account: string): Promise<boolean> {
    if (this.stopped) return false;
    const game = await this.storage.games.get(gameId);
    if (!game || !isTurnOf(game, account)) return false;
    return this.play(game, account);
  }

  private async sweepAccount(account: string): Promise<number> {
    const limit = this.options.sweepLimit ?? 500;
    let played = 0;
    let seen = 0;
    let after: Parameters<Storage['clocks']['listTurn']>[3];
    while (seen < limit && !this.stopped) {
      const page = await this.storage.clocks.listTurn(account, {}, Math.min(100, limit - seen), after);
      seen += page.items.length;
      const stale = this.now() - (this.options.freshMs ?? 2000);
      const results = await Promise.all(
        page.items
          .filter((g) => isTurnOf(g, account) && turnStartOf(g) <= stale)
          .map((g) => this.play(g, account)),
      );
      played += results.filter(Boolean).length;
      if (!page.next) break;
      after = page.next;
    }
    return played;
  }

  private onEvent(account: string, event: FeedEvent): void {
    // Slim or rendered (delivery/feed-events.ts): the id and status are all it reads here.
    const game = gameOfData(event.data);
    if (!game || game.status !== 'ongoing') return;
    const id = game.id;
    this.consider(id, account).catch((error: unknown) => this.report(error, id, account));
  }

  private play(game: StoredGame, account: string): Promise<boolean> {
    const turn = `${game.id}@${game.version}`;
    const running = this.playing.get(turn);
    if (running) return running;
    let deferred: TurnDeferred | undefined;
    const done = this.playTurn(game, account)
      .catch((error: unknown) => {
        if (error instanceof TurnDeferred) deferred = error;
        else this.report(error, game.id, account);
        return false;
      })
      .finally(() => {
        this.playing.delete(turn);
        deferred?.released?.();
      });
    this.playing.set(turn, done);
    return done;
  }

  private async playTurn(game: StoredGame, account: string): Promise<boolean> {
    const mover = this.movers.get(account);
    if (!mover || this.stopped) return false;
    const lease = `turn:${game.id}:${game.version}`;
    const claim = await this.storage.idempotency.claim(lease, account, this.leaseMs);
    if (claim.status !== 'claimed') return false;
    let played = false;
    try {
      const view = this.games.view(game);
      const move = await mover.provider(view, view.legalMoves, timeLeftOf(view, this.now()), game);
      if (this.stopped) return false;
      const after = await this.games.play(game.id, move, {
        credential: mover.credential,
        expectedVersion: game.version,
        idempotencyKey: `turn.${game.id}.${game.version}`,
      });
      played = after.head.version === game.version + 1;
      return played;
    } catch (error) {
      // Rethrown to play(), which hands the turn back once it is no longer counted as playing.
      if (error instanceof TurnDeferred) throw error;
      if (error instanceof GameError && TURN_GONE.has(error.code)) return false;
      throw error;
    } finally {
      // Played: the version moved on and the claim is moot. Not played (a provider failure): free
      // the turn at once so that the next sweep tries again.
      if (!played) await this.storage.idempotency.release(lease).catch(() => undefined);
    }
  }

  private report(error: unknown, gameId: string, account: string): void {
    this.options.onError?.(error, { gameId, account });
  }
}

/** The mover's time: its running clock (realtime), else until the deadline; null without a limit. */
export function timeLeftOf(game: GameView, now: number): number | null {
  const clock = game.clock;
  if (clock && clock.runningSeat !== null) {
    const since = clock.runningSince ? Date.parse(clock.runningSince) : now;
    return Math.max(0, (clock.remainingMs[clock.runningSeat] ?? 0) - (now - since));
  }
  if (game.deadlineAt) return Math.max(0, Date.parse(game.deadlineAt) - now);
  return null;
}
