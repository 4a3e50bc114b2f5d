// Kalah(h, s): docs/rules/kalah.md. Own store sown, opponent's skipped, origin not skipped; last
// seed in an own empty house captures the opposite house (if it has seeds, or always with
// `emptyCapture`); last seed in the own store moves again; the game ends when a row is empty.
import { defineKind } from '../kind';
import { makeMancalaEngine, type MancalaGame } from './engine';
import type { RuleRecord } from './rules';

/** The standard rules; options change houses, seeds and the empty-capture flag. */
export const KALAH_RULES: RuleRecord = {
  kind: 'kalah',
  houses: 6,
  seeds: 4,
  storesSown: true,
  skipOrigin: false,
  relay: false,
  capture: 'opposite',
  emptyCapture: false,
  grandSlam: 'noCapture',
  mustFeed: false,
  repetition: false,
  moveLimit: 600,
  end: 'row-empty',
};

export const KALAH: MancalaGame = {
  kind: 'kalah',
  rulesVersion: '2',
  options: [
    {
      name: 'seeds',
      title: 'Seeds per house',
      description: 'How many seeds each house holds at the start.',
      type: 'int',
      min: 1,
      max: 6,
      default: 4,
    },
    {
      name: 'houses',
      title: 'Houses per side',
      description: 'How many houses each player has in his row.',
      type: 'int',
      min: 1,
      max: 6,
      default: 6,
    },
    {
      name: 'emptyCapture',
      title: 'Capture opposite an empty house',
      description:
        'A last seed sown into an own empty house is captured (with the opposite seeds) even when the ' +
        'opposite house is empty.',
      type: 'bool',
      default: false,
    },
  ],
  notation: 'store-between-rows',
  houseRange: [1, 6],
  rules: (options, houses) => ({
    ...KALAH_RULES,
    houses: houses ?? Number(options.houses ?? KALAH_RULES.houses),
    seeds: Number(options.seeds ?? KALAH_RULES.seeds),
    emptyCapture: options.emptyCapture === true,
  }),
};

export const kalahEngine = makeMancalaEngine(KALAH);

/** Kalah as a hosted kind: its name, notation texts and house limits beside the rules above. */
export const kalahKind = defineKind({
  engine: kalahEngine,
  name: 'Kalah',
  family: 'mancala',
  notation: {
    moves: 'the house number of the side to move, 1…h in sowing order (house h is next to its store)',
    position:
      "\"4,4,4,4,4,4/0/4,4,4,4,4,4/0 S\": South's houses 1…h, South's store, North's houses 1…h, " +
      "North's store, then S or N to move",
  },
  options: KALAH.options,
  moveLimit: KALAH_RULES.moveLimit,
  record: { mediaType: 'text/plain' },
  verification: { maxPlies: 40 },
});
