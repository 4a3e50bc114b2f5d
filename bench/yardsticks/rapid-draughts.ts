// Yardstick: rapid-draughts (loks0n/rapid-draughts, English draughts, 32-square bitboards), perft
// from its start position through its public engine API: moves, clone, move. Same node definition as
// ours: sequences of `depth` moves, the last ply counted from the move list (bulk counting).
import type { BenchCase } from '../perft';

// The package is ESM with extensionless re-exports in its .d.ts files, which TypeScript's node16
// resolution cannot read from this CommonJS project; its CommonJS build loads fine, so we require it
// and declare the few members we use.
interface EnglishDraughtsEngine {
  readonly moves: readonly unknown[];
  clone(): EnglishDraughtsEngine;
  move(move: unknown): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EnglishDraughtsEngineFactory } = require('rapid-draughts/english') as {
  EnglishDraughtsEngineFactory: { setup(): EnglishDraughtsEngine };
};

const DEPTH = 9;

/** Perft over rapid-draughts' public API (its `move` re-validates each move, as a caller's would). */
export function rapidPerft(engine: EnglishDraughtsEngine, depth: number): number {
  const moves = engine.moves;
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const move of moves) {
    const child = engine.clone();
    child.move(move);
    nodes += rapidPerft(child, depth - 1);
  }
  return nodes;
}

export const rapidDraughtsPerft: BenchCase = {
  name: `rapid-draughts english perft(${DEPTH})`,
  run: () => rapidPerft(EnglishDraughtsEngineFactory.setup(), DEPTH),
};
