// The lobby's list of open seeks as events change it (lobby/seeks.ts feeds it): pure functions, no
// DOM (test/web/lobby-board.test.ts). A listing read after the stream opened may be older than an
// event already seen, so a seek an event removed never comes back from a listing.
import type { components } from '../../../packages/client/src/generated/openapi';

type ListedSeek = components['schemas']['ListedSeek'];

/** The seeks shown: a listing merged with the events seen since the stream opened. */
export interface SeekBoard {
  readonly seeks: ReadonlyMap<string, ListedSeek>;
  /** Ids removed by an event: a listing read later must not bring them back. */
  readonly removed: ReadonlySet<string>;
}

export const EMPTY_BOARD: SeekBoard = { seeks: new Map(), removed: new Set() };

export function seekAdded(board: SeekBoard, seek: ListedSeek): SeekBoard {
  if (board.removed.has(seek.id)) return board;
  return { ...board, seeks: new Map(board.seeks).set(seek.id, seek) };
}

export function seekRemoved(board: SeekBoard, id: string): SeekBoard {
  const seeks = new Map(board.seeks);
  seeks.delete(id);
  return { seeks, removed: new Set(board.removed).add(id) };
}

/** A listing read after the stream opened: adds what no event removed; events already seen stay. */
export function seeksListed(board: SeekBoard, items: readonly ListedSeek[]): SeekBoard {
  const seeks = new Map(board.seeks);
  for (const seek of items) if (!board.removed.has(seek.id) && !seeks.has(seek.id)) seeks.set(seek.id, seek);
  return { ...board, seeks };
}

/** Oldest first, as they were posted. */
export function seekOrder(board: SeekBoard): ListedSeek[] {
  return [...board.seeks.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

