// The lobby's list of open seeks as the lobby stream changes it: seeks added and removed by id
// (once each, whatever the order of the events), oldest first, `ready` and `more` kept.
import { applyLobbyEvent, EMPTY_BOARD, seekOrder } from '../../web/src/lobby/board';

const added = (id: string, createdAt: string) =>
  ({ event: 'seek.added', data: { id, createdAt, kind: 'kalah' } }) as any;
const removed = (id: string) => ({ event: 'seek.removed', data: { id, reason: 'matched' } }) as const;

describe('the lobby list', () => {
  it('adds and removes seeks by id, oldest first; ready says whether more wait', () => {
    let board = [
      added('b', '2026-01-01T00:00:02Z'),
      added('a', '2026-01-01T00:00:01Z'),
      { event: 'ready', data: { listed: 2, more: true } } as const,
    ].reduce(applyLobbyEvent, EMPTY_BOARD);
    expect([seekOrder(board).map((s) => s.id), board.ready, board.more]).toEqual([['a', 'b'], true, true]);
    // The same seek twice is one line; a removal of an unknown seek changes nothing.
    board = [added('c', '2026-01-01T00:00:03Z'), added('c', '2026-01-01T00:00:03Z'), removed('x')].reduce(
      applyLobbyEvent,
      board,
    );
    expect(seekOrder(board).map((s) => s.id)).toEqual(['a', 'b', 'c']);
    board = applyLobbyEvent(board, removed('a'));
    expect(seekOrder(board).map((s) => s.id)).toEqual(['b', 'c']);
    expect(applyLobbyEvent(board, { event: 'shutdown', data: {} })).toBe(board);
  });
});
