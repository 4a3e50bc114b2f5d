// Russian draughts as a hosted kind: everything the server says about it beside its rules (./index.ts).
import { defineKind } from '../kind';
import { russianDraughts } from '.';
import { DRAUGHTS_MOVE_LIMIT } from './state';

export const draughtsKind = defineKind({
  engine: russianDraughts,
  name: 'Russian draughts',
  family: 'draughts',
  notation: {
    moves: '"c3-d4"; captures "e3:g5:e7" (also "e3:e7" when only one capture matches); squares may be 1–32',
    position:
      'PDN FEN "W:Wa1,c1,Kd4:Bb8,d8" (side to move, White\'s pieces, Black\'s; K = king), with the draw ' +
      'counters in plies as an optional last field ":D<kings only>,<balance>,<lone king>"',
  },
  options: [],
  moveLimit: DRAUGHTS_MOVE_LIMIT,
  // The engine's record is PDN (Portable Draughts Notation), which draughts programs read.
  record: { mediaType: 'application/x-draughts-pdn' },
  verification: { maxPlies: 70 },
});
