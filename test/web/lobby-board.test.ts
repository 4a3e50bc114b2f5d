// The lobby's list of open seeks: a listing and the live events merged so that a seek is never shown
// twice, and one an event removed never returns from a listing read before the removal.
import { EMPTY_BOARD, seekAdded, seekOrder, seekRemoved, seeksListed } from '../../web/src/lobby/board';

const seek = (id: string, createdAt: string) => ({ id, createdAt, kind: 'kalah' }) as any;

describe('the lobby list', () => {
  it('adds, removes and orders seeks by when they were posted', () => {
    let board = seekAdded(EMPTY_BOARD, seek('b', '2026-01-01T00:00:02Z'));
    board = seekAdded(board, seek('a', '2026-01-01T00:00:01Z'));
    board = seekAdded(board, seek('a', '2026-01-01T00:00:01Z'));
    expect(seekOrder(board).map((s) => s.id)).toEqual(['a', 'b']);
    board = seekRemoved(board, 'a');
    expect(seekOrder(board).map((s) => s.id)).toEqual(['b']);
  });

  it('keeps what events said over an older listing', () => {
    // Opened: `x` was removed and `y` added before the listing (read earlier) arrives with x and z.
    let board = seekRemoved(EMPTY_BOARD, 'x');
    board = seekAdded(board, seek('y', '2026-01-01T00:00:03Z'));
    board = seeksListed(board, [seek('x', '2026-01-01T00:00:01Z'), seek('z', '2026-01-01T00:00:02Z')]);
    expect(seekOrder(board).map((s) => s.id)).toEqual(['z', 'y']);
    // A later event for a listed seek still removes it, and a removed one is not added back.
    board = seekRemoved(board, 'z');
    board = seekAdded(board, seek('x', '2026-01-01T00:00:01Z'));
    expect(seekOrder(board).map((s) => s.id)).toEqual(['y']);
  });
});
