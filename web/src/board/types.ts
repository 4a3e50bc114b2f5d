import type { Board, Kind } from '../api/client';

/**
 * What the page asks a board to show. Ids are squares (`e3`) on grid boards and pits on mancala
 * boards, spelled as the API's sowing traces spell them: `S1`…`Sh`, `Sstore`, `N1`…, `Nstore`.
 */
export interface BoardMarks {
  /** May be activated to start a move (a piece or house with legal moves). */
  readonly selectable?: ReadonlySet<string>;
  /** The next squares of the legal moves that begin with `path`. */
  readonly targets?: ReadonlySet<string>;
  /** The squares entered so far of a move being made (its start first). */
  readonly path?: readonly string[];
  /** The squares of the last move (from, …, to), or the house sown. */
  readonly last?: readonly string[];
  /** Squares or pits whose pieces or seeds the last move captured. */
  readonly captured?: readonly string[];
  /** Congkak: the houses whose seeds the last move picked up to sow on (relays). */
  readonly relays?: readonly string[];
  /** Mancala: the pit the sowing animation has reached. */
  readonly pulse?: string;
}

export interface BoardProps {
  readonly kind: Kind;
  readonly board: Board;
  /** Seat 1 (black, north) at the bottom. */
  readonly flipped?: boolean;
  readonly marks?: BoardMarks;
  /** Called with the id of a square or pit the user clicked or pressed Enter/Space on. */
  readonly onActivate?: (id: string) => void;
  /** The accessible name of the whole board (default: the kind's name and "board"). */
  readonly label?: string;
  /** The seats' names, seat 0 first (the game's, or the kind's from GET /kinds). */
  readonly seatNames: readonly string[];
}

/** The id a square has in an activation handler, as an element attribute. */
export const ID_ATTRIBUTE = 'data-id';

/** Keyboard activation like a button: Enter or Space. */
export function activateOnKey(event: KeyboardEvent, activate: () => void): void {
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    activate();
  }
}
