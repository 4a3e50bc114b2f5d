// A kind defined only here, to show that adding a kind is one descriptor: a 3-house Kalah made with
// the mancala engine's own factory and rule data, described by defineKind and nothing else. The
// toy-kind test registers it (registerKind) before the app's modules load; everything else (the
// engine and store contracts, GET /kinds, REST and GraphQL create and move) picks it up from the
// list. Nothing in src/ names it.
import { defineKind } from '../../src/engines/kind';
import { makeMancalaEngine } from '../../src/engines/mancala/engine';
import { KALAH, KALAH_RULES } from '../../src/engines/mancala/kalah';
import type { OptionSpec } from '../../src/engines/mancala/options';
import type { GameKind } from '../../src/engines/types';

/**
 * The toy's id. GameKind is the union of the built-in kinds (the types of the AI's and other
 * built-in tables); a registered kind is outside it at run time, so its id is cast once, here.
 */
export const TOY_ID = 'toy-kalah' as GameKind;

const TOY_RULES = { ...KALAH_RULES, kind: TOY_ID, houses: 3, seeds: 3, moveLimit: 200 };
const OPTIONS: readonly OptionSpec[] = [
  { name: 'seeds', title: 'Seeds', description: 'Seeds per house.', type: 'int', min: 1, max: 4, default: 3 },
];

export const toyEngine = makeMancalaEngine({
  kind: TOY_ID,
  rulesVersion: '1',
  options: OPTIONS,
  notation: KALAH.notation,
  houseRange: [3, 3],
  rules: (options) => ({ ...TOY_RULES, seeds: Number(options.seeds ?? TOY_RULES.seeds) }),
});

export const TOY_KIND = defineKind({
  engine: toyEngine,
  name: 'Toy Kalah',
  family: 'mancala',
  notation: {
    moves: 'the house number of the side to move, 1–3 in sowing order',
    position: 'as Kalah with three houses a side: "3,3,3/0/3,3,3/0 S"',
  },
  options: OPTIONS,
  moveLimit: TOY_RULES.moveLimit,
  record: { mediaType: 'text/plain' },
  verification: { maxPlies: 20 },
});
