// Congo as a hosted kind: everything the server says about it beside its rules (./index.ts).
import { defineKind } from '../kind';
import { congoEngine } from '.';
import { CONGO_MOVE_LIMIT } from './state';

export const congoKind = defineKind({
  engine: congoEngine,
  name: 'Congo',
  family: 'congo',
  notation: {
    moves: 'the squares a piece visits, joined by "-": "c2-e4", a monkey\'s multiple capture "c2-e4-e2"',
    position:
      'Congo FEN: seven ranks from rank 7 to rank 1, digits for empty squares, upper case for White ' +
      '(G giraffe, M monkey, E elephant, L lion, C crocodile, Z zebra, P pawn, S superpawn), then w or b ' +
      'to move. Drowning needs no extra field: it follows from the pieces in the river (rank 4).',
  },
  options: [],
  moveLimit: CONGO_MOVE_LIMIT,
  record: { mediaType: 'text/plain' },
  verification: { maxPlies: 80 },
});
