// How pieces are drawn: Congo's animals by their letter (as in position strings), draughts' men
// and kings as discs (a king with a crown ring).

export interface PieceLook {
  /** The letter drawn on the piece ('' for a draughts man). */
  readonly symbol: string;
  /** The name read by screen readers and shown in the legend. */
  readonly name: string;
}

export const CONGO_PIECES: Record<string, PieceLook> = {
  lion: { symbol: 'L', name: 'lion' },
  zebra: { symbol: 'Z', name: 'zebra' },
  elephant: { symbol: 'E', name: 'elephant' },
  giraffe: { symbol: 'G', name: 'giraffe' },
  crocodile: { symbol: 'C', name: 'crocodile' },
  monkey: { symbol: 'M', name: 'monkey' },
  pawn: { symbol: 'P', name: 'pawn' },
  superpawn: { symbol: 'S', name: 'superpawn' },
};

export const DRAUGHTS_PIECES: Record<string, PieceLook> = {
  man: { symbol: '', name: 'man' },
  king: { symbol: 'K', name: 'king' },
};

/** The look of a piece named by the API (an unknown name is drawn by its first letter). */
export function pieceLook(piece: string): PieceLook {
  return (
    CONGO_PIECES[piece] ?? DRAUGHTS_PIECES[piece] ?? { symbol: piece.slice(0, 1).toUpperCase(), name: piece }
  );
}
