import { congoEngine } from './congo';
import { russianDraughts } from './draughts';
import type { AnyEngine } from './engine';
import { congkakEngine } from './mancala/congkak';
import { kalahEngine } from './mancala/kalah';
import { owareEngine } from './mancala/oware';
import type { GameKind } from './types';

// The only list of games. Each engine registers itself here and nowhere else.
const ENGINE_LIST: readonly AnyEngine[] = [
  congoEngine,
  russianDraughts,
  kalahEngine,
  owareEngine,
  congkakEngine,
];

export const ENGINES: ReadonlyMap<GameKind, AnyEngine> = new Map(ENGINE_LIST.map((e) => [e.kind, e]));

/** The engine for a kind, or undefined for a kind this server does not host. */
export function getEngine(kind: string): AnyEngine | undefined {
  return ENGINES.get(kind as GameKind);
}
