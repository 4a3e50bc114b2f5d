// The lobby's list of open seeks as the lobby stream changes it (lobby/seeks.ts feeds it): each
// connection starts from nothing, receives the waiting seeks as `seek.added`, then `ready`, then
// every change. Pure functions, no DOM (test/web/lobby-board.test.ts).
import type { components } from '../../../packages/client/src/generated/openapi';

type Schemas = components['schemas'];
export type LobbySeek = Schemas['LobbySeek'];
export type LobbyEvent = Schemas['LobbyStreamEvent'];

export interface SeekBoard {
  readonly seeks: ReadonlyMap<string, LobbySeek>;
  /** The stream said `ready`: the seeks waiting when it opened are all here. */
  readonly ready: boolean;
  /** More seeks wait than the stream sent at first (it sends the oldest 100). */
  readonly more: boolean;
}

export const EMPTY_BOARD: SeekBoard = { seeks: new Map(), ready: false, more: false };

/** The board after one event of the lobby stream (others, such as shutdown, change nothing). */
export function applyLobbyEvent(board: SeekBoard, event: LobbyEvent): SeekBoard {
  switch (event.event) {
    case 'seek.added':
      return { ...board, seeks: new Map(board.seeks).set(event.data.id, event.data) };
    case 'seek.removed': {
      if (!board.seeks.has(event.data.id)) return board;
      const seeks = new Map(board.seeks);
      seeks.delete(event.data.id);
      return { ...board, seeks };
    }
    case 'ready':
      return { ...board, ready: true, more: event.data.more };
    default:
      return board;
  }
}

/** Oldest first, as they were posted. */
export function seekOrder(board: SeekBoard): LobbySeek[] {
  return [...board.seeks.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
