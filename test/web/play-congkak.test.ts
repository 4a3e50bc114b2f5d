// Congkak in the playground: two browser contexts open the two seat links and play a whole game
// (five houses of one seed, clockwise, two stores) by clicking houses the page highlights; each sees
// the other's moves live, and the result shown is the API's.
import { playground } from '../support/browser';
import { apiGame, createGame, playMancalaByClicking, waitForPly } from '../support/play';

describe('Congkak in the playground', () => {
  const pg = playground();

  it('Congkak: two seats play a whole game by clicking', async () => {
    await playMancalaByClicking(pg, 'congkak', { kind: 'congkak', options: { houses: 5, seeds: 1 } });
  }, 40_000);

  it('marks the houses a move relayed from, and what it captured', async () => {
    const created = await createGame(pg, { kind: 'congkak', options: { houses: 5, seeds: 1 } });
    const page = await pg.page('spectator');
    await page.goto(`${pg.url}/play/${created.game.id}`);
    await page.locator('.live').waitFor();
    // South sows house 1: its seed lands in house 2, which is not empty, so it sows on from there.
    const res = await fetch(`${pg.url}/api/v1/games/${created.game.id}/moves`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${created.seatTokens[0]!.token}`,
      },
      body: JSON.stringify({ move: '1' }),
    });
    expect(res.status).toBe(200);
    const game = await apiGame(pg, created.game.id);
    const { relays, capturedFrom } = game.moves[0].details;
    expect(relays.length).toBeGreaterThan(0);
    await waitForPly(page, 1);
    await page.locator('svg.board .relay').first().waitFor();
    const marked = (cls: string) =>
      page
        .locator(`svg.board .pit.${cls}`)
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-id')).sort());
    expect(await marked('relay')).toEqual([...new Set<string>(relays)].sort());
    expect(await marked('captured')).toEqual([...new Set<string>(capturedFrom)].sort());
    expect(await page.locator(`[data-id="${relays[0]}"]`).getAttribute('aria-label')).toContain('relayed');
    await pg.screenshot(page, 'congkak-relays');
  }, 30_000);
});
