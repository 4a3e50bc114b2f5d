// The search adapter of each game kind.
import type { AnyEngine } from '../engines/engine';
import type { GameKind } from '../engines/types';
import type { Adapter } from './adapter';
import { congoAdapter } from './congo';
import { draughtsAdapter } from './draughts';
import { mancalaAdapter } from './mancala';

const FACTORIES: Readonly<Record<GameKind, (engine: AnyEngine) => Adapter>> = {
  kalah: (e) => mancalaAdapter(e) as unknown as Adapter,
  oware: (e) => mancalaAdapter(e) as unknown as Adapter,
  congkak: (e) => mancalaAdapter(e) as unknown as Adapter,
  'russian-draughts': (e) => draughtsAdapter(e) as unknown as Adapter,
  congo: (e) => congoAdapter(e) as unknown as Adapter,
};

const cache = new Map<GameKind, Adapter>();

export function adapterFor(engine: AnyEngine): Adapter {
  let adapter = cache.get(engine.kind);
  if (!adapter) cache.set(engine.kind, (adapter = FACTORIES[engine.kind](engine)));
  return adapter;
}
