import type { AnyEngine } from '../engines/engine';
import type { Outcome, Side } from '../engines/types';
import type { MoveRecord, Storage, StoredGame } from '../store/store';
import { authorizeSeat, type Authenticator, type Caller, type Credential } from './auth';
import { isOverdue } from './clock';
import { GameError } from './errors';
import { gameNotices } from './feed';
import type { GameTime } from './game-time';
import {
  LIVE_MOVES,
  toGameHeadView,
  toMoveView,
  withMoves,
  type GameHeadView,
  type GameView,
  type LiveGameView,
  type MovesSource,
  type MoveView,
  type MoveViewer,
} from './game-view';
import type { GameService } from './games';
import { withDetails } from './game-rules';
import { ratingResults } from './ratings/results';
import { feature } from './tv';

/** Idempotency keys: what clients commonly send (UUIDs, ULIDs, short random strings). */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,128}$/;
/** How often a write without an expected version retries after losing a race. */
export const WRITE_ATTEMPTS = 8;
/** How many games' last-seen documents a node keeps for its writes. */
const RECENT_GAMES = 10_000;

export interface WriteOptions {
  readonly credential: Credential;
  /** The version the client last saw; a different current version fails with VERSION_CONFLICT. */
  readonly expectedVersion?: number;
  /** Retrying with the same key returns the first answer without acting twice (24 h). */
  readonly idempotencyKey?: string;
}

/**
 * What a write of a seat answers: the new head and the move the write played (null for the other
 * actions), O(1) in the length of the game, with the whole game built only when asked for (`game`,
 * once). REST answers `slim` with `Prefer: return=minimal`, GraphQL resolves `live` (its `moves`
 * field pages the moves on demand), and the whole `game` is the default REST answer.
 */
export class WriteAnswer implements MovesSource {
  private whole: GameView | undefined;

  constructor(
    readonly head: GameHeadView,
    readonly move: MoveView | null,
    private readonly engine: MoveViewer,
    /** Every move of the new version, oldest first. */
    private readonly records: readonly MoveRecord[],
  ) {}

  moves(after = 0, limit?: number): readonly MoveView[] {
    const from = Math.min(after, this.records.length);
    return this.records
      .slice(from, limit === undefined ? undefined : from + limit)
      .map((m) => toMoveView(this.engine, m));
  }

  get lastMove(): MoveView | null {
    const last = this.records[this.records.length - 1];
    return last ? toMoveView(this.engine, last) : null;
  }

  /** The whole game, moves included: O(moves). */
  get game(): GameView {
    return (this.whole ??= withMoves(this.head, this.moves()));
  }

  /** The head, and the move the write played: a game stream's `update`, O(1). */
  get slim(): { readonly game: GameHeadView; readonly move: MoveView | null } {
    return { game: this.head, move: this.move };
  }

  /** The head with the moves on demand, as GraphQL resolves a Game. */
  get live(): LiveGameView {
    return { ...this.head, [LIVE_MOVES]: this };
  }
}

/** The writes of a game's seats for GameService: read, authorize, check, compare-and-set, retry. */
export class GameWrites {
  /** Last-seen documents, used only as the first guess of a write (see `write`); oldest evicted. */
  private readonly recent = new Map<string, StoredGame>();

  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly now: () => Date,
    private readonly time: GameTime,
    private readonly games: GameService,
    /** Reads a game; GAME_NOT_FOUND / INVALID_INPUT for unknown or malformed ids (GameService.load). */
    private readonly load: (id: string) => Promise<StoredGame>,
  ) {}

  /**
   * Read, authorize, check, compute, and compare-and-set, retrying races the client did not pin.
   * Every write of a seat goes through here (moves in games.ts, the other in-game actions in
   * game-actions.ts): `compute` gets the game, the caller's seat and the time, and returns the next
   * document or throws a GameError; `action` names the request for idempotency keys.
   */
  async write(
    id: string,
    write: WriteOptions,
    action: string,
    compute: (game: StoredGame, seat: Side, engine: AnyEngine, at: string) => StoredGame,
    /** The engine state of a computed document's position, if `compute` has it (saves re-reading it). */
    stateOf: (next: StoredGame) => { readonly state: unknown } | undefined = () => undefined,
  ): Promise<WriteAnswer> {
    const key = write.idempotencyKey;
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      throw new GameError('INVALID_INPUT', 'Idempotency keys are 1–128 characters of A-Z a-z 0-9 . _ : -');
    }
    if (
      write.expectedVersion !== undefined &&
      (!Number.isInteger(write.expectedVersion) || write.expectedVersion < 0)
    ) {
      throw new GameError('INVALID_INPUT', 'expectedVersion must be a whole number ≥ 0');
    }
    const caller: Caller = await this.auth.identify(write.credential);
    // A retried key is answered by the store's update itself (`replayed`), in the same round trip as
    // the write. Only a refusal computed before it (the game moved on since the first attempt: not
    // this seat's turn, a version conflict, over) asks the store for the key's first answer.
    const replayed = async (engine: AnyEngine, fingerprint: string | undefined) => {
      if (key === undefined || fingerprint === undefined) return undefined;
      const seen = await this.storage.games.idempotencyRecord(id, key);
      return seen ? this.replay(engine, seen, fingerprint, action) : undefined;
    };
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      // First try the last-seen document (saves a read per move). A stale copy costs a failed
      // compare-and-set, and any refusal computed from it is re-checked against the store.
      const cached = attempt === 0 ? this.recent.get(id) : undefined;
      const game = cached ?? (await this.load(id));
      if (!cached) this.remember(game);
      const engine = this.games.engineFor(game.kind);
      const now = this.now();
      const at = now.toISOString();
      let next: StoredGame;
      let fingerprint: string | undefined;
      let timedOut: StoredGame | undefined;
      try {
        const seat = authorizeSeat(game, caller);
        fingerprint = `${seat}:${action}`;
        const vacations = await this.time.vacationsOf(game);
        if (isOverdue(game, now.getTime(), vacations)) {
          // Too late: the service ends the game by timeout itself (the sweep may not have yet).
          timedOut = this.time.timedOut(game, now.getTime(), vacations);
        } else if (game.status === 'finished' && game.outcome?.reason === 'timeout') {
          // Whoever ended it (a sweep, or this write a moment ago), the answer is the same.
          throw timeoutError(this.games.headView(game));
        }
        if (!timedOut) {
          if (write.expectedVersion !== undefined && write.expectedVersion !== game.version) {
            throw versionConflict(game.version);
          }
          if (game.status === 'finished') {
            throw new GameError('GAME_OVER', 'The game is over', { result: game.outcome });
          }
        }
        next = timedOut ?? this.time.timed(game, compute(game, seat, engine, at), now.getTime(), vacations);
      } catch (error) {
        if (cached && error instanceof GameError) continue;
        if (error instanceof GameError) {
          const first = await replayed(engine, fingerprint);
          if (first) return first;
        }
        throw error;
      }
      if (timedOut) {
        // A retry of a write that was applied before the time ran out gets its first answer.
        const first = await replayed(engine, fingerprint);
        if (first) return first;
        const result = await this.commit(game, timedOut);
        if (result.status === 'updated') throw timeoutError(this.games.headView(timedOut));
        if (result.status === 'missing') throw new GameError('GAME_NOT_FOUND', `No game with id ${id}`);
        continue;
      }
      const views = this.viewsOf(engine, game, next, timedOut ? undefined : stateOf(next));
      const result = await this.storage.games.update(
        next,
        game.version,
        key === undefined ? undefined : { key, fingerprint },
        gameNotices(game, next, views, next.updatedAt),
        await ratingResults(this.storage, game, next),
      );
      if (result.status === 'updated') {
        this.remember(next);
        this.time.announce(next);
        if (next.status !== game.status) await feature(this.storage, next);
      } else this.recent.delete(id);
      switch (result.status) {
        case 'updated':
          return new WriteAnswer(views.game, views.move, engine, next.moves);
        case 'replayed':
          return this.replay(engine, result.record, fingerprint, action);
        case 'missing':
          throw new GameError('GAME_NOT_FOUND', `No game with id ${id}`);
        case 'conflict':
          if (write.expectedVersion !== undefined) throw versionConflict(result.currentVersion);
      }
    }
    throw new GameError('VERSION_CONFLICT', 'The game is changing too fast; read it and retry');
  }

  /** The head view of `next`, and the view of the move it added to `game` (if any): O(1). */
  private viewsOf(
    engine: AnyEngine,
    game: StoredGame,
    next: StoredGame,
    known?: { readonly state: unknown },
  ): { readonly game: GameHeadView; readonly move: MoveView | null } {
    const added = next.moves.length > game.moves.length ? next.moves[next.moves.length - 1] : undefined;
    return {
      game: toGameHeadView(engine, next, known),
      move: added ? toMoveView(engine, added) : null,
    };
  }

  /** Compare-and-set a write made by the service itself (no idempotency key), with its notices. */
  async commit(game: StoredGame, next: StoredGame) {
    const views = this.viewsOf(this.games.engineFor(next.kind), game, next);
    const result = await this.storage.games.update(
      next,
      game.version,
      undefined,
      gameNotices(game, next, views, next.updatedAt),
      await ratingResults(this.storage, game, next),
    );
    if (result.status === 'updated') {
      this.remember(next);
      this.time.announce(next);
      if (next.status !== game.status) await feature(this.storage, next);
    } else this.recent.delete(game.id);
    return result;
  }

  private remember(game: StoredGame): void {
    this.recent.delete(game.id);
    this.recent.set(game.id, game);
    if (this.recent.size > RECENT_GAMES) this.recent.delete(this.recent.keys().next().value as string);
  }

  /**
   * The first answer to a retried key, in the shape of a fresh one: the version it made, and (for a
   * move) the move it played, the last of that version's moves.
   */
  private replay(
    engine: AnyEngine,
    seen: { fingerprint: string; response: StoredGame },
    fingerprint: string,
    action: string,
  ): WriteAnswer {
    if (seen.fingerprint !== fingerprint) {
      throw new GameError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was used for a different request');
    }
    // A store may have compacted the moves of a finished game since (see game-rules.ts).
    const game = withDetails(engine, seen.response);
    const last = action.startsWith('move:') ? game.moves[game.moves.length - 1] : undefined;
    return new WriteAnswer(
      toGameHeadView(engine, game),
      last ? toMoveView(engine, last) : null,
      engine,
      game.moves,
    );
  }
}

function timeoutError(game: GameHeadView): GameError {
  return new GameError('TIMEOUT', 'Time ran out before this action: the game ended by timeout', {
    result: game.result,
  });
}

function versionConflict(currentVersion: number): GameError {
  return new GameError('VERSION_CONFLICT', `The game is at version ${currentVersion}`, { currentVersion });
}

/** The game ended with `outcome`: nobody to move, no moves, no standing offer. */
export function finish(game: StoredGame, outcome: Outcome): StoredGame {
  return { ...game, status: 'finished', outcome, toMove: null, legalMoves: [], drawOffer: null };
}
