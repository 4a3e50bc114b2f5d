// Congo and Russian draughts in the playground: two browser contexts open the two seat links and
// play a game from a late position to its end by clicking the board, each seeing the other's moves
// live; a draughts capture chain and a Congo monkey jump chain are entered square by square (only
// legal continuations highlighted); a move is also entered from the keyboard; the result shown is
// the API's.
import type { Page } from 'playwright-core';
import { playground } from '../support/browser';
import { apiGame, click, createGame, highlighted, openSeats, shownResult, waitForPly } from '../support/play';

/** The vertical centre of a square on the page. */
async function centreY(page: Page, id: string): Promise<number> {
  const box = await page.locator(`svg.board [data-id="${id}"]`).boundingBox();
  return box!.y + box!.height / 2;
}

async function expectResultEverywhere(pages: readonly Page[], end: any): Promise<void> {
  for (const page of pages) {
    await waitForPly(page, end.ply);
    const shown = await shownResult(page);
    expect(shown.winner).toBe(String(end.result.winner));
    expect(shown.reason).toBe(end.result.reason);
    expect(shown.text).toContain(`${end.result.winnerName} wins`);
    const moves = await page.locator('ol.moves li').allTextContents();
    expect(moves.map((m) => m.trim())).toEqual(end.moves.map((m: any) => `${m.seatName} ${m.notation}`));
  }
}

describe('grid games in the playground', () => {
  const pg = playground();

  it('Congo: a move from the keyboard, then a monkey jump chain entered square by square', async () => {
    const created = await createGame(pg, { kind: 'congo', position: '7/1p1l2p/M6/7/7/3L3/7 b' });
    const [white, black] = await openSeats(pg, created);
    // Each side sees its own side at the bottom.
    expect(await centreY(white, 'a1')).toBeGreaterThan(await centreY(white, 'a7'));
    expect(await centreY(black, 'a1')).toBeLessThan(await centreY(black, 'a7'));
    // The legend names the pieces; squares say what stands on them.
    expect(await white.locator('.legend').textContent()).toContain('monkey');
    expect(await white.locator('[data-id="d6"]').getAttribute('aria-label')).toContain('black lion');
    expect(await white.locator('[data-id="d4"]').getAttribute('aria-label')).toContain('river');
    await pg.screenshot(white, 'congo-start');
    expect(await pg.axe(black)).toEqual([]);
    // White may not move on Black's turn: nothing is offered.
    expect(await highlighted(white, 'selectable')).toEqual([]);

    // Black: g6-g5 with the keyboard (Tab to the square, Enter; then Space on the target).
    expect(await highlighted(black, 'selectable')).toContain('g6');
    await black.locator('[data-id="g6"]').focus();
    await black.keyboard.press('Enter');
    await black.locator('svg.board .target').first().waitFor();
    expect(await highlighted(black, 'target')).toContain('g5');
    await black.locator('[data-id="g5"]').focus();
    await black.keyboard.press(' ');
    await waitForPly(white, 1);

    // White: the monkey jumps b6 then the lion: a5, c7 (a move that may stop there), e5.
    await white.locator('svg.board .selectable').first().waitFor();
    expect(await highlighted(white, 'selectable')).toContain('a5');
    await click(white, 'a5');
    expect(await highlighted(white, 'target')).toContain('c7');
    await click(white, 'c7');
    expect(await highlighted(white, 'target')).toEqual(['e5']);
    await white.getByRole('button', { name: 'Stop here (a5-c7)' }).waitFor();
    expect(await white.locator('ol.moves li').count()).toBe(1);
    await click(white, 'e5');
    // The page shows the move once the server has it: read the game after that, not before.
    await waitForPly(white, 2);
    const end = await apiGame(pg, created.game.id);
    expect(end.moves[1].notation).toBe('a5-c7-e5');
    expect(end.result.reason).toBe('lion-captured');
    await expectResultEverywhere([white, black], end);
    await pg.screenshot(black, 'congo-end');
  }, 40_000);

  it('Russian draughts: a two-piece capture chain entered square by square ends the game', async () => {
    const created = await createGame(pg, { kind: 'russian-draughts', position: 'B:Wc3:Be5,f6' });
    const [white, black] = await openSeats(pg, created);
    await pg.screenshot(white, 'russian-draughts-start');
    expect(await pg.axe(white)).toEqual([]);

    expect((await highlighted(black, 'selectable')).sort()).toEqual(['e5', 'f6']);
    await click(black, 'e5');
    expect((await highlighted(black, 'target')).sort()).toEqual(['d4', 'f4']);
    await click(black, 'd4');
    await waitForPly(white, 1);

    // White must capture: c3, then e5 (over d4), then g7 (over f6).
    await white.locator('svg.board .selectable').first().waitFor();
    expect(await highlighted(white, 'selectable')).toEqual(['c3']);
    await click(white, 'c3');
    expect(await highlighted(white, 'target')).toEqual(['e5']);
    await click(white, 'e5');
    expect(await highlighted(white, 'target')).toEqual(['g7']);
    expect(await white.locator('ol.moves li').count()).toBe(1);
    await click(white, 'g7');
    await waitForPly(black, 2);
    const end = await apiGame(pg, created.game.id);
    expect(end.moves[1].notation).toBe('c3:e5:g7');
    expect(end.moves[1].details.captured).toEqual(['d4', 'f6']);
    await expectResultEverywhere([white, black], end);
    // The captured squares are marked on the board.
    for (const sq of ['d4', 'f6'])
      expect(await black.locator(`[data-id="${sq}"]`).getAttribute('class')).toContain('captured');
    await pg.screenshot(black, 'russian-draughts-end');
  }, 40_000);
});
