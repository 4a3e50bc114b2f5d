// Kalah, Oware and Congkak in the playground: two browser contexts open the two seat links and play
// a whole game by clicking houses the page highlights; each sees the other's moves live, and the
// result shown is the API's. Small boards and a late Oware position keep the games short.
import { playground } from '../support/browser';
import { apiGame, createGame, openSeats, playToEnd, shownResult, waitForPly } from '../support/play';

const GAMES: ReadonlyArray<{ name: string; body: Record<string, unknown> }> = [
  { name: 'kalah', body: { kind: 'kalah', options: { houses: 3, seeds: 2 } } },
  { name: 'oware', body: { kind: 'oware', position: '0,0,0,1,0,1/1,0,0,0,0,0 stores 22-23 S' } },
  { name: 'congkak', body: { kind: 'congkak', options: { houses: 5, seeds: 1 } } },
];

describe('mancala games in the playground', () => {
  const pg = playground();

  it.each(GAMES)(
    '$name: two seats play a whole game by clicking',
    async ({ name, body }) => {
      const created = await createGame(pg, body);
      const pages = await openSeats(pg, created);
      // The board is drawn from the API's: every house with its seed count, and both stores.
      const start = await apiGame(pg, created.game.id);
      const houses = start.board.houses as number[][];
      for (const [seat, prefix] of [
        [0, 'S'],
        [1, 'N'],
      ] as const) {
        for (let i = 0; i < houses[seat]!.length; i++) {
          const label = await pages[0].locator(`[data-id="${prefix}${i + 1}"]`).getAttribute('aria-label');
          expect(label).toMatch(new RegExp(`^${houses[seat]![i]} seeds?, \\w+ house ${i + 1}\\b`));
        }
        expect(await pages[0].locator(`[data-id="${prefix}store"]`).count()).toBe(1);
      }
      await pg.screenshot(pages[0], `${name}-start`);
      expect(await pg.axe(pages[0])).toEqual([]);

      const end = await playToEnd(pg, created.game.id, pages);
      for (const page of pages) {
        await waitForPly(page, end.ply);
        const shown = await shownResult(page);
        expect(shown.winner).toBe(String(end.result.winner));
        expect(shown.reason).toBe(end.result.reason);
        if (end.result.winnerName) expect(shown.text).toContain(`${end.result.winnerName} wins`);
        const moves = await page.locator('ol.moves li').allTextContents();
        expect(moves.map((m) => m.trim())).toEqual(end.moves.map((m: any) => `${m.seatName} ${m.notation}`));
      }
      await pg.screenshot(pages[1], `${name}-end`);
    },
    40_000,
  );
});
