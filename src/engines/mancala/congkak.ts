// Congkak: docs/rules/congkak.md. The Kalah ring (own store sown, opponent's skipped, origin not
// skipped) with relay sowing: a last seed in an occupied house lifts it and sowing goes on. A last
// seed in an own empty house takes the opposite house plus itself; a single round that ends when a
// row is empty after a move.
import { defineKind } from '../kind';
import { makeMancalaEngine, type MancalaGame } from './engine';
import type { RuleRecord } from './rules';

/** 7 houses × 7 seeds; options change the houses (seeds follow unless given). */
export const CONGKAK_RULES: RuleRecord = {
  kind: 'congkak',
  houses: 7,
  seeds: 7,
  storesSown: true,
  skipOrigin: false,
  relay: true,
  capture: 'opposite',
  emptyCapture: false,
  grandSlam: 'noCapture',
  mustFeed: false,
  repetition: false,
  moveLimit: 600,
  end: 'row-empty',
};

export const CONGKAK: MancalaGame = {
  kind: 'congkak',
  rulesVersion: '2',
  options: [
    {
      name: 'houses',
      title: 'Houses per side',
      description: 'How many houses each player has in his row.',
      type: 'int',
      min: 5,
      max: 9,
      default: 7,
    },
    {
      name: 'seeds',
      title: 'Seeds per house',
      description: 'How many seeds each house holds at the start.',
      type: 'int',
      min: 1,
      max: 9,
      default: (parsed) => Number(parsed.houses),
      defaultText: 'the number of houses',
    },
  ],
  notation: 'store-between-rows',
  houseRange: [5, 9],
  rules: (options, houses) => ({
    ...CONGKAK_RULES,
    houses: houses ?? Number(options.houses ?? CONGKAK_RULES.houses),
    seeds: Number(options.seeds ?? options.houses ?? CONGKAK_RULES.seeds),
  }),
};

export const congkakEngine = makeMancalaEngine(CONGKAK);

/** Congkak as a hosted kind: its name, notation texts and house limits beside the rules above. */
export const congkakKind = defineKind({
  engine: congkakEngine,
  name: 'Congkak',
  family: 'mancala',
  notation: {
    moves: 'the house number of the side to move, 1…h in sowing order',
    position: 'as Kalah: "7,7,7,7,7,7,7/0/7,7,7,7,7,7,7/0 S"',
  },
  options: CONGKAK.options,
  moveLimit: CONGKAK_RULES.moveLimit,
  record: { mediaType: 'text/plain' },
  verification: { maxPlies: 40 },
});
