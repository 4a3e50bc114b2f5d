// House rules that bound the work of a game (docs/rules/README.md, "House rules"). Not rules of the games:
// no official text bounds a game's length or a position's moves, but a server must. Each kind's move
// limit is its descriptor's `moveLimit` (the engine folders hold the numbers they enforce).

/**
 * Congo: the most monkey capture sequences one position may have. Legal material (one monkey; at
 * most 13 other enemy pieces, at most two of them in the river, and the lion to jump) gives 7 286
 * in the worst position found by search (docs/rules/congo.md, "Limits"); a position string with
 * more is refused, and generation stops here, so no position costs more than this many sequences.
 */
export const MONKEY_SEQUENCE_LIMIT = 20_000;
