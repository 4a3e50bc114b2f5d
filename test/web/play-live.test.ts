// The game page, live: a spectator receives every move of a game played through the API by another
// client; realtime clocks tick; draw offers and resignation go through the page and reach the other
// seat live; the record downloads; a phone-sized screen fits the board.
import { playground } from '../support/browser';
import {
  apiGame,
  click,
  createGame,
  openSeats,
  playOneByClicking,
  shownResult,
  waitForPly,
  type Created,
} from '../support/play';

/** Unlimited games may be claimed after this long without a move (default 3 days). */
const ABANDON_CLAIM_MS = 3000;

describe('the game page, live', () => {
  const pg = playground('memory', { abandonClaimMs: ABANDON_CLAIM_MS });

  /** Plays the first legal move for the side to move over REST, as another client would. */
  async function playOverApi(created: Created): Promise<any> {
    const game = await apiGame(pg, created.game.id);
    const res = await fetch(`${pg.url}/api/v1/games/${created.game.id}/moves`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${created.seatTokens[game.toMove]!.token}`,
      },
      body: JSON.stringify({ move: game.legalMoves[game.legalMoves.length - 1] }),
    });
    expect(res.status).toBe(200);
    return res.json();
  }

  it('shows a spectator every move of a game played through the API, without reloading', async () => {
    const created = await createGame(pg, { kind: 'kalah', options: { houses: 4, seeds: 3 } });
    const page = await pg.page('spectator');
    await page.goto(`${pg.url}/play/${created.game.id}`);
    await page.getByText('You are watching.').waitFor();
    await page.locator('.live').waitFor();
    await page.evaluate(() => ((globalThis as any).__sameDocument = true));
    // A spectator is offered nothing to click and no seat actions.
    expect(await page.locator('svg.board .selectable').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Resign' }).count()).toBe(0);

    // Every pit the sowing animation highlights, in order.
    await page.evaluate(() => {
      const seen: string[] = ((globalThis as any).__pulses = []);
      new MutationObserver((records: any[]) => {
        for (const r of records) {
          const el = r.target as any;
          if (el.classList.contains('pulse') && !String(r.oldValue).split(' ').includes('pulse')) {
            seen.push(el.getAttribute('data-id'));
          }
        }
      }).observe(document.querySelector('svg.board')!, {
        subtree: true,
        attributes: true,
        attributeFilter: ['class'],
        attributeOldValue: true,
      });
    });

    let game = await apiGame(pg, created.game.id);
    let sown = 0;
    while (game.status === 'ongoing') {
      game = await playOverApi(created);
      // Each move arrives while the game goes on (no waiting for the end), and is sown pit by pit
      // as its trace says before the next one.
      await waitForPly(page, game.ply);
      sown += game.moves[game.moves.length - 1].details.trace.length;
      await page.waitForFunction((n) => (globalThis as any).__pulses.length >= n, sown);
      await page.waitForFunction(() => document.querySelectorAll('svg.board .pulse').length === 0);
    }
    const traces = game.moves.flatMap((m: any) => m.details.trace as string[]);
    expect(await page.evaluate(() => (globalThis as any).__pulses)).toEqual(traces);
    const moves = await page.locator('ol.moves li').allTextContents();
    expect(moves.map((m) => m.trim())).toEqual(game.moves.map((m: any) => `${m.seatName} ${m.notation}`));
    const shown = await shownResult(page);
    expect([shown.winner, shown.reason]).toEqual([String(game.result.winner), game.result.reason]);
    expect(await page.evaluate(() => (globalThis as any).__sameDocument)).toBe(true);
    // The board shows the API's final seed counts.
    expect(await page.locator('[data-id="Sstore"]').getAttribute('aria-label')).toMatch(
      new RegExp(`^${game.board.stores[0]} seeds?, south store`),
    );
    await pg.screenshot(page, 'spectator-kalah-end');
  }, 40_000);

  it('ticks the clock of the side to move in a realtime game', async () => {
    const created = await createGame(pg, {
      kind: 'oware',
      timeControl: { type: 'realtime', initialSeconds: 300, incrementSeconds: 2 },
    });
    const [south] = await openSeats(pg, created);
    const running = south.locator('.clock.running .time');
    const first = await running.textContent();
    expect(first).toMatch(/^[45]:\d\d$/);
    await south.waitForFunction(
      (before) => document.querySelector('.clock.running .time')?.textContent !== before,
      first,
      { timeout: 5000 },
    );
    expect(await south.locator('.clock.running').getAttribute('data-seat')).toBe('0');
    // The other clock stands.
    expect(await south.locator('.clock[data-seat="1"] .time').textContent()).toBe('5:00');
  }, 30_000);

  it('offers and accepts a draw through the page, live on both sides; downloads the PDN record', async () => {
    const created = await createGame(pg, { kind: 'russian-draughts' });
    const [white, black] = await openSeats(pg, created);
    await white.locator('svg.board .selectable').first().waitFor();
    await click(white, 'c3');
    await click(white, 'd4');
    await waitForPly(black, 1);

    await white.getByRole('button', { name: 'Offer draw' }).click();
    await black.getByText('white offers a draw.').waitFor();
    await white.getByRole('button', { name: 'Draw offered' }).waitFor();
    await black.getByRole('button', { name: 'Accept draw' }).click();
    for (const page of [white, black]) {
      const shown = await shownResult(page);
      expect(shown).toEqual({ winner: 'null', reason: 'agreement', text: 'Draw: agreement' });
    }
    expect((await apiGame(pg, created.game.id)).result.reason).toBe('agreement');

    const link = white.getByRole('link', { name: 'Download the record (PDN)' });
    expect(await link.getAttribute('download')).toBe(`${created.game.id}.pdn`);
    const record = await fetch(new URL((await link.getAttribute('href'))!, pg.url));
    expect(record.status).toBe(200);
    const pdn = await record.text();
    expect(pdn).toContain('1. c3-d4');
    expect(pdn).toContain('[Result "1-1"]');
  }, 30_000);

  it('resigns after a confirmation; the other seat sees it live', async () => {
    const created = await createGame(pg, { kind: 'congkak', options: { houses: 5, seeds: 5 } });
    const [south, north] = await openSeats(pg, created);
    await north.getByRole('button', { name: 'Resign' }).click();
    // Nothing happens before the confirmation.
    expect((await apiGame(pg, created.game.id)).status).toBe('ongoing');
    await north.getByRole('button', { name: 'Confirm resignation' }).click();
    for (const page of [south, north]) {
      const shown = await shownResult(page);
      expect([shown.winner, shown.reason, shown.text]).toEqual([
        '0',
        'resignation',
        'south wins: resignation',
      ]);
    }
  }, 30_000);

  it('claims victory over an opponent who stays away, through the page', async () => {
    const created = await createGame(pg, { kind: 'congo' });
    const [white, black] = await openSeats(pg, created);
    await playOneByClicking(white);
    await waitForPly(black, 1);
    // No claim while black may still move: the time left instead (from the game's claimableAt).
    const wait = white.locator('.claim-wait');
    await wait.waitFor();
    expect(await wait.textContent()).toMatch(
      /^If black does not move, you can claim victory or a draw in \d seconds? \(/,
    );
    expect(await wait.getAttribute('data-claimable-at')).toBe(
      (await apiGame(pg, created.game.id)).claimableAt,
    );
    expect(await white.getByRole('button', { name: /^Claim/ }).count()).toBe(0);
    // Black (to move) is offered no claim at all.
    expect(await black.getByRole('button', { name: /^Claim/ }).count()).toBe(0);
    expect(await black.locator('.claim-wait').count()).toBe(0);
    // Black stays away for the abandon period; then the buttons appear by themselves and White claims.
    await white.getByRole('button', { name: 'Claim victory' }).click({ timeout: ABANDON_CLAIM_MS + 3000 });
    expect(await wait.count()).toBe(0);
    for (const page of [white, black]) {
      const shown = await shownResult(page);
      expect([shown.winner, shown.reason, shown.text]).toEqual(['0', 'abandoned', 'white wins: abandoned']);
    }
    expect((await apiGame(pg, created.game.id)).result).toMatchObject({ winner: 0, reason: 'abandoned' });
  }, 30_000);

  it('fits a phone-sized screen', async () => {
    const created = await createGame(pg, { kind: 'congo' });
    const phone = await pg.page('phone', { viewport: { width: 390, height: 844 } });
    await phone.goto(`${pg.url}/play/${created.game.id}`);
    await phone.locator('#status').waitFor();
    const { scroll, client, board } = await phone.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      board: document.querySelector('svg.board')!.getBoundingClientRect().width,
    }));
    expect(scroll).toBeLessThanOrEqual(client);
    expect(board).toBeGreaterThan(300);
    expect(board).toBeLessThanOrEqual(client);
    await pg.screenshot(phone, 'phone-congo');
    expect(await pg.axe(phone)).toEqual([]);
  }, 30_000);
});

/** The page's document inside page functions (the tests compile without DOM types). */
declare const MutationObserver: any;
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(selector: string): { length: number };
  querySelector(
    selector: string,
  ): { textContent: string | null; getBoundingClientRect(): { width: number } } | null;
};
