// Oware abapa: docs/rules/oware.md. No stores in the circuit, origin skipped on laps, 2s and 3s
// captured backwards from the last seed in the opponent's row (grand slam captures nothing by
// default), the opponent must be fed; ends on a majority, when the mover cannot feed, or on the
// third occurrence of a position (house rule).
import { defineKind } from '../kind';
import { makeMancalaEngine, type MancalaGame } from './engine';
import { GRAND_SLAM_RULES, type GrandSlamRule, type RuleRecord } from './rules';

/** Abapa; options change the seeds per house (and so the majority) and the grand-slam rule. */
export const OWARE_RULES: RuleRecord = {
  kind: 'oware',
  houses: 6,
  seeds: 4,
  storesSown: false,
  skipOrigin: true,
  relay: false,
  capture: 'chain23',
  emptyCapture: false,
  grandSlam: 'noCapture',
  mustFeed: true,
  repetition: true,
  moveLimit: 1000,
  end: 'oware',
};

export const OWARE: MancalaGame = {
  kind: 'oware',
  rulesVersion: '2',
  options: [
    {
      name: 'seeds',
      title: 'Seeds per house',
      description: 'How many seeds each house holds at the start (a majority of them wins).',
      type: 'int',
      min: 4,
      max: 6,
      default: 4,
    },
    {
      name: 'grandSlam',
      title: 'Grand slam',
      description: "What a move that would capture all the opponent's seeds does.",
      type: 'enum',
      values: GRAND_SLAM_RULES,
      labels: ['Captures nothing (the move is played)', 'Captures them all'],
      default: 'noCapture',
    },
  ],
  notation: 'stores-suffix',
  houseRange: [6, 6],
  rules: (options) => ({
    ...OWARE_RULES,
    seeds: Number(options.seeds ?? OWARE_RULES.seeds),
    grandSlam: (options.grandSlam ?? OWARE_RULES.grandSlam) as GrandSlamRule,
  }),
};

export const owareEngine = makeMancalaEngine(OWARE);

/** Oware as a hosted kind: its name, notation texts and house limits beside the rules above. */
export const owareKind = defineKind({
  engine: owareEngine,
  name: 'Oware',
  family: 'mancala',
  notation: {
    moves: 'the house number of the side to move, 1–6 in sowing order',
    position:
      '"4,4,4,4,4,4/4,4,4,4,4,4 stores 0-0 S": South\'s houses 1–6, North\'s houses 1–6, the captured ' +
      'seeds South-North, then S or N to move',
  },
  options: OWARE.options,
  moveLimit: OWARE_RULES.moveLimit,
  record: { mediaType: 'text/plain' },
  verification: { maxPlies: 60 },
});
