// House rules that bound the work of a game (docs/rules/README.md, "House rules"). Not rules of the games:
// no official text bounds a game's length or a position's moves, but a server must.
import type { GameKind } from './types';

/**
 * The move limit: a game still going on after this many plies (moves by either side, counted from
 * the position the game started from) ends at once with reason `move-limit`: a draw in Congo and
 * draughts; in the mancala games each player takes the seeds on his side and the larger total wins.
 * Far above real games (docs/rules/README.md gives the measured lengths).
 */
export const MOVE_LIMITS: Readonly<Record<GameKind, number>> = {
  congo: 600,
  'russian-draughts': 600,
  kalah: 600,
  oware: 1000,
  congkak: 600,
};

/**
 * Congo: the most monkey capture sequences one position may have. Legal material (one monkey; at
 * most 13 other enemy pieces, at most two of them in the river, and the lion to jump) gives 7 286
 * in the worst position found by search (docs/rules/congo.md, "Limits"); a position string with
 * more is refused, and generation stops here, so no position costs more than this many sequences.
 */
export const MONKEY_SEQUENCE_LIMIT = 20_000;
