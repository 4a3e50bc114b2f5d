// A mancala game as data: the rule record that drives the one sowing routine in ./sow.ts.
//
// Pit layout shared by every mancala module (h = houses per side, n = 2h + 2 pits):
//
//        North  N_h … N_2 N_1            indices 2h … h+1
//   Nstore                      Sstore   indices 2h+1 and h
//        South  S_1 S_2 … S_h            indices 0 … h-1
//
// Sowing runs up the index order (S_1 → S_h → Sstore → N_1 → … → N_h → Nstore → S_1), so house i
// (1-based) of each side is numbered in its owner's sowing order and lies opposite house h+1-i.

import type { GameKind } from '../types';

/** Which seeds a last seed captures. */
export const CAPTURE_RULES = [
  'opposite', // Kalah / Congkak: last seed in an own empty house takes the opposite house plus itself
  'chain23', // Oware: last seed making 2 or 3 in an opponent's house, chained backwards
] as const;
export type CaptureRule = (typeof CAPTURE_RULES)[number];

export const GRAND_SLAM_RULES = ['noCapture', 'capture'] as const;
export type GrandSlamRule = (typeof GRAND_SLAM_RULES)[number];

/** How the game ends. */
export const END_RULES = [
  'row-empty', // Kalah / Congkak: after any move that leaves a row empty; each sweeps his own row
  'oware', // majority of the seeds, or the side to move has no legal move (cannot be fed)
] as const;
export type EndRule = (typeof END_RULES)[number];

/** Everything that distinguishes one mancala game from another. Plain, JSON-safe data. */
export interface RuleRecord {
  readonly kind: GameKind;
  readonly houses: number;
  /** Seeds per house at the start (also fixes the total for the Oware majority). */
  readonly seeds: number;
  /** The mover's own store is in the circuit (the opponent's is always skipped). */
  readonly storesSown: boolean;
  /** The origin house is skipped on laps (Oware's 12-seed rule). */
  readonly skipOrigin: boolean;
  /** A last seed landing in an occupied house lifts that house and sowing continues (Congkak). */
  readonly relay: boolean;
  readonly capture: CaptureRule;
  /** Kalah variant: a last seed in an own empty house is captured even if the opposite is empty. */
  readonly emptyCapture: boolean;
  readonly grandSlam: GrandSlamRule;
  /** A player must give seeds to an opponent whose row is empty (Oware). */
  readonly mustFeed: boolean;
  /** Third occurrence of a position (same side to move) ends the game (Oware house rule). */
  readonly repetition: boolean;
  readonly end: EndRule;
  /**
   * The house move limit (docs/rules/README.md, "House rules"): a game still going on after this
   * many plies ends with reason `move-limit`, each player taking the seeds on his side. The kind's
   * descriptor publishes it.
   */
  readonly moveLimit: number;
}

/** A rule record with the tables the sowing loop reads. Shared and never mutated. */
export interface Ruleset extends RuleRecord {
  /** Number of pits (houses and stores). */
  readonly n: number;
  /** next[side][pit]: the pit after `pit` when `side` sows (skipped stores already applied). */
  readonly next: readonly [Int32Array, Int32Array];
  /** Oware: a store strictly above this wins. */
  readonly majorityAbove: number;
}

/** Index of house `house` (0-based) of `side`. */
export const houseIndex = (h: number, side: number, house: number): number => side * (h + 1) + house;
/** Index of `side`'s store. */
export const storeIndex = (h: number, side: number): number => side * (h + 1) + h;

function nextTable(r: RuleRecord, side: number): Int32Array {
  const h = r.houses;
  const n = 2 * h + 2;
  const table = new Int32Array(n);
  for (let pit = 0; pit < n; pit++) {
    let q = (pit + 1) % n;
    for (;;) {
      const isStore = q === h || q === n - 1;
      const ownStore = q === storeIndex(h, side);
      if (!isStore || (ownStore && r.storesSown)) break;
      q = (q + 1) % n;
    }
    table[pit] = q;
  }
  return table;
}

const compiled = new Map<string, Ruleset>();

/** The (cached) ruleset for a rule record. */
export function compileRules(record: RuleRecord): Ruleset {
  const key = JSON.stringify(record);
  const cached = compiled.get(key);
  if (cached) return cached;
  const ruleset: Ruleset = {
    ...record,
    n: 2 * record.houses + 2,
    next: [nextTable(record, 0), nextTable(record, 1)],
    majorityAbove: record.houses * record.seeds,
  };
  compiled.set(key, ruleset);
  return ruleset;
}
