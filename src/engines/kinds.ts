// The one list of hosted kinds. Each kind is one descriptor beside its engine (./kind.ts); this
// list is the only place that names them all, in the order GET /kinds and the enums show them.
import { congoKind } from './congo/kind';
import { draughtsKind } from './draughts/kind';
import type { AnyEngine } from './engine';
import type { AnyKind } from './kind';
import { congkakKind } from './mancala/congkak';
import { kalahKind } from './mancala/kalah';
import { owareKind } from './mancala/oware';
import type { GameKind } from './types';

const list: AnyKind[] = [congoKind, draughtsKind, kalahKind, owareKind, congkakKind];
const byId = new Map<string, AnyKind>(list.map((k) => [k.engine.kind, k]));
/** Set once the list has been read for what modules build when they load: no kind may follow. */
let read = false;

/** The list, for facts that enums, validators and limits are built from when a module loads. */
function reading(): readonly AnyKind[] {
  read = true;
  return list;
}

/** Every hosted kind, built-in ones first, then any registered with registerKind. */
export const KINDS: readonly AnyKind[] = list;

/** The descriptor of a kind, or undefined for a kind this server does not host. */
export function kindOf(kind: string): AnyKind | undefined {
  return byId.get(kind);
}

/** The engine of a kind, or undefined for a kind this server does not host. */
export function getEngine(kind: string): AnyEngine | undefined {
  return byId.get(kind)?.engine;
}

/**
 * The ids of the hosted kinds, in list order. A non-empty tuple typed as the built-in union so that
 * enums built from it (zod, GraphQL) keep their types; a registered kind is in it at run time.
 */
export function kindIds(): readonly [GameKind, ...GameKind[]] {
  return reading().map((k) => k.engine.kind) as unknown as readonly [GameKind, ...GameKind[]];
}

/** The longest move limit of any hosted kind: the most moves a game's list can hold. */
export function longestMoveLimit(): number {
  return Math.max(...reading().map((k) => k.moveLimit));
}

/** The records' media types other than text/plain (draughts' PDN), once each, in list order. */
export function recordMediaTypes(): string[] {
  return [...new Set(reading().map((k) => k.record.mediaType))].filter((type) => type !== 'text/plain');
}

/**
 * Hosts one more kind: a descriptor is all a kind needs. For kinds defined outside src/engines (the
 * tests' toy kind). Call it before the transports are imported: the GraphQL enum and the REST
 * schemas are built from the list when their modules load, so a kind registered after that is
 * refused. The AI plays only the kinds of its own table (src/ai/kinds.ts) and refuses the others.
 * The engine's `kind` is typed GameKind, the built-in union; a registered id is outside it at run
 * time, so tables keyed by the union (the AI's) must look it up as optional (aiKindOf).
 */
export function registerKind(kind: AnyKind): void {
  const id = kind.engine.kind;
  if (byId.has(id)) throw new Error(`kind ${id} is hosted already`);
  if (read)
    throw new Error(
      `kind ${id} comes too late: the kind ids were read already (register before the app loads)`,
    );
  list.push(kind);
  byId.set(id, kind);
}
