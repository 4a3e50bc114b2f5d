// The one write path of a game: load → authorize → timing → decide → commit (retrying races the
// client did not pin) → after-commit. Seats' commands come in through `apply`; the service's own
// writes (a timeout found by the sweeper, a deadline a vacation moved) through `commit`. Both end in
// `save`, the one place that builds a write's effects and applies what follows a commit.
import type { AnyEngine } from '../../engines/engine';
import type { Side } from '../../engines/types';
import type { GameHead, Storage, StoredGame, UpdateResult } from '../../store/store';
import { authorizeSeat, type Authenticator, type Caller } from '../accounts/auth';
import { isOverdue } from '../time/clock';
import { GameError } from '../errors';
import { replayState, withDetails } from './rules';
import {
  toGameHeadView,
  toGameView,
  toMoveView,
  type GameHeadView,
  type GameView,
  type MoveView,
} from './view';
import { ratingResults } from '../ratings/results';
import type { StateCache } from './state-cache';
import { applyFeatured } from './tv';
import { WriteAnswer, type WriteOptions } from './answer';
import { fingerprintOf, type GameCommand } from './commands';
import { decide, type PlayedState } from './decide';
import { effectsOf } from './effects';
import { gameNotFound, mayRead } from './audience';
import { timed, timedOut, vacationsOf, type Deadlines } from './timing';

export { WriteAnswer, type WriteOptions } from './answer';

/** Idempotency keys: what clients commonly send (UUIDs, ULIDs, short random strings). */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,128}$/;
/** How often a write without an expected version retries after losing a race. */
export const WRITE_ATTEMPTS = 8;
/** How many games' last-seen documents a node keeps for its writes. */
const RECENT_GAMES = 10_000;

/** What the writer is given (it depends on no service). */
export interface WriterParts {
  readonly storage: Storage;
  readonly auth: Authenticator;
  readonly now: () => Date;
  /** The engine of a kind this server hosts (UNKNOWN_GAME_KIND otherwise). */
  readonly engineFor: (kind: string) => AnyEngine;
  /** Reads a game, every move with its details; GAME_NOT_FOUND / INVALID_INPUT for unknown or malformed ids. */
  readonly load: (id: string) => Promise<StoredGame>;
  /** Engine states of games this node last moved, so that a move need not replay the game. */
  readonly states: StateCache;
  /** Told of the deadline each write sets. */
  readonly deadlines: Deadlines;
  /** The player to wait may claim once the opponent has not moved for this long (unlimited games). */
  readonly abandonClaimMs: number;
}

/** An attempt lost a race (or refused from a stale copy): read the game again and retry. */
const RETRY = Symbol('retry');

/** What one attempt computed before the commit. */
interface Step {
  readonly seat: Side;
  readonly next: StoredGame;
  /** The write found the time run out: `next` ends the game by timeout instead. */
  readonly timedOut: boolean;
  readonly played: PlayedState | undefined;
}

export class GameWriter {
  /** Last-seen documents, used only as the first guess of a write (see `apply`); oldest evicted. */
  private readonly recent = new Map<string, StoredGame>();
  /** `restore`, bound once (a move's decide asks it for the position's state). */
  private readonly state = (engine: AnyEngine, game: StoredGame): unknown => this.restore(engine, game);

  constructor(private readonly parts: WriterParts) {}

  /** The head view of `game` with this server's abandon period (claimableAt). */
  headView(engine: AnyEngine, game: GameHead, known?: { readonly state: unknown }): GameHeadView {
    return toGameHeadView(engine, game, this.parts.abandonClaimMs, known);
  }

  /** The view of `game` with its moves, with this server's abandon period (claimableAt). */
  view(engine: AnyEngine, game: StoredGame): GameView {
    return toGameView(engine, game, this.parts.abandonClaimMs);
  }

  /**
   * A seat's command: read, authorize, check, decide, and compare-and-set, retrying races the
   * client did not pin. Answers the new head (and the move a move played), the whole game on demand.
   */
  async apply(id: string, command: GameCommand, write: WriteOptions): Promise<WriteAnswer> {
    checkOptions(write);
    const caller: Caller = await this.parts.auth.identify(write.credential);
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      // First try the last-seen document (saves a read per move). A stale copy costs a failed
      // compare-and-set, and any refusal computed from it is re-checked against the store.
      const cached = attempt === 0 ? this.recent.get(id) : undefined;
      const game = cached ?? (await this.parts.load(id));
      if (!cached) this.remember(game);
      const answer = await this.attempt(game, cached !== undefined, caller, command, write);
      if (answer !== RETRY) return answer;
    }
    throw new GameError('VERSION_CONFLICT', 'The game is changing too fast; read it and retry');
  }

  /** Compare-and-set a write made by the service itself (no idempotency key), with its effects. */
  async commit(game: StoredGame, next: StoredGame): Promise<UpdateResult> {
    return (await this.save(this.parts.engineFor(next.kind), game, next, undefined, undefined)).result;
  }

  private async attempt(
    game: StoredGame,
    cached: boolean,
    caller: Caller,
    command: GameCommand,
    write: WriteOptions,
  ): Promise<WriteAnswer | typeof RETRY> {
    const engine = this.parts.engineFor(game.kind);
    const key = write.idempotencyKey;
    let seat: Side | undefined;
    let step: Step;
    try {
      // A private game is no game to whoever may not read it (audience.ts), writers included.
      if (!mayRead(game, caller)) throw gameNotFound(game.id);
      seat = authorizeSeat(game, caller);
      step = await this.prepare(engine, game, seat, command, write.expectedVersion);
    } catch (error) {
      if (!(error instanceof GameError)) throw error;
      // A refusal computed from a stale copy is checked again against the store.
      if (cached) return RETRY;
      // A retried key whose write was applied: the game moved on since, and its first answer stands.
      const first =
        seat === undefined
          ? undefined
          : await this.replayed(engine, game.id, key, fingerprintOf(seat, command), command);
      if (first) return first;
      throw error;
    }
    const fingerprint = fingerprintOf(step.seat, command);
    if (step.timedOut) {
      // A retry of a write that was applied before the time ran out gets its first answer.
      const first = await this.replayed(engine, game.id, key, fingerprint, command);
      if (first) return first;
      const { result } = await this.save(engine, game, step.next, undefined, undefined);
      if (result.status === 'updated') throw timeoutError(this.headView(engine, step.next));
      if (result.status === 'missing') throw new GameError('GAME_NOT_FOUND', `No game with id ${game.id}`);
      return RETRY;
    }
    // The state just played is the new position's (an ongoing game's: a finished one is re-read,
    // as its stored position went through the end-of-game rules).
    const played = step.played;
    const known =
      played && step.next.status === 'ongoing' && step.next.position === played.position ? played : undefined;
    const idempotency = key === undefined ? undefined : { key, fingerprint };
    const { result, views } = await this.save(engine, game, step.next, idempotency, known);
    let answer: WriteAnswer;
    switch (result.status) {
      case 'updated':
        answer = new WriteAnswer(views.game, views.move, engine, step.next.moves);
        break;
      case 'replayed':
        answer = this.replay(engine, result.record, fingerprint, command);
        break;
      case 'missing':
        throw new GameError('GAME_NOT_FOUND', `No game with id ${game.id}`);
      case 'conflict':
        if (write.expectedVersion !== undefined) throw versionConflict(result.currentVersion);
        return RETRY;
    }
    // Only a state that was stored (not a lost race, not another answer replayed) seeds the next write.
    const head = answer.head;
    if (played && head.version === played.version && head.position === played.position) {
      this.parts.states.set(game.id, played, engine.stateBytes(played.state));
    }
    return answer;
  }

  /** Timing, version and status checks, then the command's next document (or its refusal). */
  private async prepare(
    engine: AnyEngine,
    game: StoredGame,
    seat: Side,
    command: GameCommand,
    expectedVersion: number | undefined,
  ): Promise<Step> {
    const now = this.parts.now();
    const at = now.getTime();
    const vacations = await vacationsOf(this.parts.storage, game);
    if (isOverdue(game, at, vacations)) {
      // Too late: the service ends the game by timeout itself (the sweep may not have yet).
      return { seat, next: timedOut(game, at, vacations), timedOut: true, played: undefined };
    }
    if (game.status === 'finished' && game.outcome?.reason === 'timeout') {
      // Whoever ended it (a sweep, or this write a moment ago), the answer is the same.
      throw timeoutError(this.headView(engine, game));
    }
    if (expectedVersion !== undefined && expectedVersion !== game.version)
      throw versionConflict(game.version);
    if (game.status === 'finished')
      throw new GameError('GAME_OVER', 'The game is over', { result: game.outcome });
    const decision = decide(command, {
      game,
      seat,
      engine,
      at: now.toISOString(),
      abandonClaimMs: this.parts.abandonClaimMs,
      state: this.state,
    });
    return {
      seat,
      next: timed(game, decision.next, at, vacations),
      timedOut: false,
      played: decision.played,
    };
  }

  /**
   * Compare-and-set `next` over `game` with everything it causes (effects.ts), then what follows a
   * commit: the document kept as this node's first guess, the sweeper told of the new deadline, TV's
   * candidates changed. The one place every write of a game ends.
   */
  private async save(
    engine: AnyEngine,
    game: StoredGame,
    next: StoredGame,
    idempotency: { readonly key: string; readonly fingerprint: string } | undefined,
    known: { readonly state: unknown } | undefined,
  ): Promise<{ readonly result: UpdateResult; readonly views: Views }> {
    const views = viewsOf(engine, game, next, this.parts.abandonClaimMs, known);
    // The one read a write's effects need: the ratings a rated ending is scored against.
    const effects = effectsOf(game, next, views, await ratingResults(this.parts.storage, game, next));
    const result = await this.parts.storage.games.update(next, game.version, idempotency, effects);
    if (result.status === 'updated') {
      this.remember(next);
      this.parts.deadlines.announce(effects.wake);
      // Only a write that starts or ends the game changes TV (no extra await for a move).
      if (effects.featured) await applyFeatured(this.parts.storage, effects.featured);
    } else this.recent.delete(game.id);
    return { result, views };
  }

  /** The first answer of a retried key, when there is one (a refusal of a write applied before). */
  private async replayed(
    engine: AnyEngine,
    id: string,
    key: string | undefined,
    fingerprint: string,
    command: GameCommand,
  ): Promise<WriteAnswer | undefined> {
    if (key === undefined) return undefined;
    const seen = await this.parts.storage.games.idempotencyRecord(id, key);
    return seen ? this.replay(engine, seen, fingerprint, command) : undefined;
  }

  /**
   * The first answer to a retried key, in the shape of a fresh one: the version it made, and (for a
   * move) the move it played, the last of that version's moves.
   */
  private replay(
    engine: AnyEngine,
    seen: { fingerprint: string; response: StoredGame },
    fingerprint: string,
    command: GameCommand,
  ): WriteAnswer {
    if (seen.fingerprint !== fingerprint) {
      throw new GameError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was used for a different request');
    }
    // A store may have compacted the moves of a finished game since (see rules.ts).
    const game = withDetails(engine, seen.response);
    const last = command.type === 'move' ? game.moves[game.moves.length - 1] : undefined;
    return new WriteAnswer(
      this.headView(engine, game),
      last ? toMoveView(engine, last) : null,
      engine,
      game.moves,
    );
  }

  /** The game's engine state: this node's cached one when current, else replayed (see replayState). */
  restore(engine: AnyEngine, game: StoredGame): unknown {
    const known = this.parts.states.get(game.id);
    if (known && known.version === game.version && known.position === game.position) return known.state;
    return replayState(engine, game);
  }

  private remember(game: StoredGame): void {
    this.recent.delete(game.id);
    this.recent.set(game.id, game);
    if (this.recent.size > RECENT_GAMES) this.recent.delete(this.recent.keys().next().value as string);
  }
}

type Views = { readonly game: GameHeadView; readonly move: MoveView | null };

/** The head view of `next`, and the view of the move it added to `game` (if any): O(1). */
function viewsOf(
  engine: AnyEngine,
  game: StoredGame,
  next: StoredGame,
  abandonClaimMs: number,
  known?: { readonly state: unknown },
): Views {
  const added = next.moves.length > game.moves.length ? next.moves[next.moves.length - 1] : undefined;
  return {
    game: toGameHeadView(engine, next, abandonClaimMs, known),
    move: added ? toMoveView(engine, added) : null,
  };
}

function checkOptions(write: WriteOptions): void {
  if (write.idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(write.idempotencyKey)) {
    throw new GameError('INVALID_INPUT', 'Idempotency keys are 1–128 characters of A-Z a-z 0-9 . _ : -');
  }
  const expected = write.expectedVersion;
  if (expected !== undefined && (!Number.isInteger(expected) || expected < 0)) {
    throw new GameError('INVALID_INPUT', 'expectedVersion must be a whole number ≥ 0');
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
