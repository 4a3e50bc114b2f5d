// The vocabulary every engine shares. Closed sets are `as const` tuples so that one list drives
// iteration, GraphQL enums, OpenAPI enums and exhaustive switches. The rest of the server takes them
// through src/vocabulary.ts, which re-exports them (the engines import nothing outside src/engines).

export const GAME_KINDS = ['congo', 'russian-draughts', 'kalah', 'oware', 'congkak'] as const;
export type GameKind = (typeof GAME_KINDS)[number];

/** 0 = the side that moves first in the standard game (White / South), 1 = the other. */
export type Side = 0 | 1;
export const SIDES: readonly Side[] = [0, 1];
export const other = (side: Side): Side => (side === 0 ? 1 : 0);

/** How a finished game ended. `winner` is undefined for a draw. */
export interface Outcome {
  readonly winner?: Side;
  readonly reason: OutcomeReason;
  /** Final score where the game has one (mancala stores), seat 0 first. */
  readonly score?: readonly [number, number];
}

export const OUTCOME_REASONS = [
  'lion-captured', // Congo: a lion was captured
  'no-moves', // the side to move has no legal move and loses
  'bare-lions', // Congo: only the lions are left and no capture is possible
  'threefold-repetition', // the same position with the same side to move occurred three times
  'kings-only-15', // draughts 7.2.5: 15 moves by each side with kings only, no capture
  'three-kings-vs-one', // draughts 7.2.4
  'endgame-30-60', // draughts 7.2.6
  'long-diagonal', // draughts 7.2.7
  'small-material', // draughts 7.2.8
  'majority', // mancala: a player holds more than half of the seeds
  'cannot-feed', // Oware: the mover cannot give the opponent seeds
  'row-empty', // Kalah / Congkak: a row is empty after a move
  'resignation',
  'agreement',
  'timeout',
  'aborted',
  'abandoned', // unlimited games: the player to move stayed away; the other claimed the win or a draw
  'banned', // a player's account was banned or erased: it lost by forfeit
  'move-limit', // the game reached its ply limit (the kind descriptor's moveLimit; a house rule)
] as const;
export type OutcomeReason = (typeof OUTCOME_REASONS)[number];

export type Result<T, E> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };
export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });
export const err = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });

/** Stable engine error codes; the service maps each to a GameError code. */
export const ENGINE_ERROR_CODES = [
  'INVALID_NOTATION', // the text is not a move / position in this game's notation
  'ILLEGAL_MOVE', // well-formed, but not legal here
  'AMBIGUOUS_MOVE', // a shorthand matches several legal moves (see `candidates`)
  'GAME_OVER', // the position is finished: no move is legal
  'INVALID_POSITION', // a position string that is well-formed but impossible
  'INVALID_OPTIONS', // creation options out of range or unknown
] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

export interface EngineError {
  readonly code: EngineErrorCode;
  readonly message: string;
  /** For AMBIGUOUS_MOVE: the legal moves the input could mean, in notation. */
  readonly candidates?: readonly string[];
}

/** Creation options after validation, with every default filled in. JSON-safe. */
export type Options = Readonly<Record<string, number | boolean | string>>;

/**
 * A structured board for clients that draw it. Squares are named in the game's notation.
 * Mancala: houses listed per side in sowing order (house 1 first), stores per side.
 */
export type BoardView =
  | {
      readonly type: 'mancala';
      readonly houses: readonly [readonly number[], readonly number[]];
      readonly stores: readonly [number, number];
    }
  | {
      readonly type: 'grid';
      readonly files: number;
      readonly ranks: number;
      readonly pieces: readonly GridPiece[];
      /** Special squares (Congo river and castles); empty for draughts. */
      readonly zones: readonly GridZone[];
    };

export interface GridPiece {
  readonly square: string;
  readonly side: Side;
  /** The piece's name in lower case: 'man', 'king', 'lion', 'zebra', 'superpawn', … */
  readonly piece: string;
}

export interface GridZone {
  readonly name: 'river' | 'castle';
  readonly side?: Side;
  readonly squares: readonly string[];
}
