import type { DescribedMove } from './move-details';
import type { BoardView, EngineError, GameKind, Options, Outcome, Result, Side } from './types';

/**
 * One game's rules as a pure, stateless object. States and moves are opaque outside the engine:
 * everything else sees notation strings (formatMove / formatState) and the structured board.
 * No method mutates its arguments or throws on bad input; failures are `Result` values.
 */
export interface Engine<S = unknown, M = unknown> {
  readonly kind: GameKind;
  /** Bumped whenever a rule change could change the result of a stored game. */
  readonly rulesVersion: string;
  /** What seat 0 and seat 1 are called in this game: ['white', 'black'], ['south', 'north']. */
  readonly seatNames: readonly [string, string];

  /** Validate creation options (unknown names rejected) and fill in defaults. */
  parseOptions(raw: unknown): Result<Options, EngineError>;
  /** The standard start position for these (already parsed) options; `first` moves first. */
  setup(options: Options, first?: Side): S;
  /** Whose move it is (never assume alternation: mancala extra moves). */
  turn(state: S): Side;
  /** Every legal move, in a stable order; [] once the game is over. */
  moves(state: S): readonly M[];
  /** The state after `move`; ILLEGAL_MOVE / GAME_OVER errors for moves not in `moves(state)`. */
  play(state: S, move: M): Result<S, EngineError>;
  /** The result once the game is over, else undefined. */
  outcome(state: S): Outcome | undefined;

  /** Read a move in the game's notation (aliases allowed); the result is a legal move of `state`. */
  parseMove(state: S, text: string): Result<M, EngineError>;
  /** The canonical notation of a legal move of `state`. */
  formatMove(state: S, move: M): string;
  /** Read a position string. Position history (for repetition rules) starts empty. */
  parseState(text: string, options?: Options): Result<S, EngineError>;
  /** The position string: board, side to move, and any counters the rules need. */
  formatState(state: S): string;
  /** A structured board for clients that draw it. */
  board(state: S): BoardView;
  /**
   * An estimate of the memory `state` keeps alive, in bytes: itself, the position history it holds
   * for repetition rules, and the legal-move lists the engine caches for them. For cache budgets.
   */
  stateBytes(state: S): number;

  /**
   * Optional fast perft over the engine's internal representation (no legality re-checks).
   * Must equal the generic `perft` of ./perft.ts; the contract suite checks that.
   */
  perft?(state: S, depth: number): number;
  /**
   * Extra facts about a move for clients (captured squares, a sowing trace), tagged with the kind's
   * board family; JSON-safe.
   */
  describeMove?(state: S, move: M): DescribedMove;
  /** The game's standard text record (PDN for draughts, PGN-like otherwise). */
  exportRecord?(record: GameRecord): string;
}

/** What an engine needs to write a game's text record. */
export interface GameRecord {
  readonly id: string;
  readonly options: Options;
  readonly first: Side;
  /** A game from a position: the position string it started from (the record's SetUp/FEN tags). */
  readonly initialPosition?: string;
  readonly moves: readonly string[];
  readonly outcome?: Outcome;
  readonly players: readonly [string, string];
  readonly startedAt: string;
  /** The TimeControl tag's value (PGN 9.6.1): `-`, `300+5`, `1/259200`; absent: not written. */
  readonly timeControl?: string;
}

/** Any engine, with its state and move types hidden. */
export type AnyEngine = Engine<unknown, unknown>;
