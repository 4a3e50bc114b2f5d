// What an engine's describeMove tells about a move: one shape per board family, tagged with the
// family so that every reader (REST's discriminator, GraphQL's resolveType, the web board) switches
// on `family` instead of guessing from the fields. The public schema of these shapes, with their
// descriptions, is src/service/views/move-details.ts (a type test keeps the two equal).
/** Congo: what a move captured, what drowned in the river, and whether a pawn promoted. */
export interface CongoMoveDetails {
  readonly family: 'congo';
  readonly captured: readonly string[];
  readonly drowned: readonly string[];
  readonly promoted: boolean;
}

/** Draughts: the squares visited, the pieces taken in order, and whether the man was crowned. */
export interface DraughtsMoveDetails {
  readonly family: 'draughts';
  readonly captured: readonly string[];
  readonly promoted: boolean;
  readonly path: readonly string[];
}

/** Mancala: the sowing of a legal move and what it captured. */
export interface MancalaMoveDetails {
  readonly family: 'mancala';
  readonly legal: true;
  readonly house: number;
  readonly trace: readonly string[];
  readonly relays: readonly string[];
  readonly capturedFrom: readonly string[];
  readonly captured: number;
  readonly extraMove: boolean;
  readonly gameOver: boolean;
}

/**
 * Mancala's answer for a value that is not a legal move. The service describes only moves that
 * parsed, so this never reaches a stored move or a client.
 */
export interface IllegalMancalaMove {
  readonly family: 'mancala';
  readonly legal: false;
}

/** A legal move's details, by family (`family` is one of BOARD_FAMILIES, ./kind.ts): what stored moves and the API carry. */
export type MoveDetails = CongoMoveDetails | DraughtsMoveDetails | MancalaMoveDetails;

/** What describeMove may return (a legal move's details, or mancala's refusal of another value). */
export type DescribedMove = MoveDetails | IllegalMancalaMove;
