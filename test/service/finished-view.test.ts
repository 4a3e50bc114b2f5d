// The view of a game that ended by its rules (docs/rules/README.md, "Finished games"): the position
// after the end-of-game rules, still naming a side, with nobody to move and no legal moves.
import { createServices } from '../../src/service';
import { createMemoryStorage } from '../../src/store/memory';

describe.each(['kalah', 'oware', 'congkak', 'russian-draughts', 'congo'])('a finished %s game', (kind) => {
  it('shows the final position, toMove null, no legal moves, and a board that matches', async () => {
    const services = createServices(createMemoryStorage());
    const created = await services.games.createGame({ kind });
    const tokens = created.seatTokens.map((s) => s.token);
    let view = created.game;
    let seed = kind.length * 7 + 1;
    while (view.status !== 'finished') {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const move = view.legalMoves[seed % view.legalMoves.length] as string;
      view = await services.games.submitMove(view.id, move, {
        credential: { token: tokens[view.toMove as number] as string },
      });
    }
    expect(view.toMove).toBeNull();
    expect(view.legalMoves).toEqual([]);
    expect(view.result).not.toBeNull();
    // The side field is still there: S/N, w/b, W/B.
    expect(view.position).toMatch(/ [SN]$| [wb]$|^[WB]:/);
    const again = await services.games.getGame(view.id);
    expect(again.position).toBe(view.position);
    if (view.board.type === 'mancala' && view.result?.reason !== 'majority') {
      expect([...view.board.houses[0], ...view.board.houses[1]].every((n) => n === 0)).toBe(true);
      expect([...view.board.stores]).toEqual(view.result?.score);
    }
  });
});
