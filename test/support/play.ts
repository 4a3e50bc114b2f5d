// Playing games through the playground page in the browser tests: seat pages, clicks on the board
// (only on what the page highlights), and waiting for moves to arrive live.
import type { Page } from 'playwright-core';
import type { Playground } from './browser';

export interface Created {
  readonly game: { id: string; kind: string; ply: number; toMove: number | null };
  readonly seatTokens: ReadonlyArray<{ seat: number; name: string; token: string }>;
}

/** Creates a game over REST (POST /api/v1/games). */
export async function createGame(pg: Playground, body: Record<string, unknown>): Promise<Created> {
  const res = await fetch(`${pg.url}/api/v1/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return (await res.json()) as Created;
}

/** The game as the API has it now. */
export async function apiGame(pg: Playground, id: string): Promise<any> {
  return (await fetch(`${pg.url}/api/v1/games/${id}`)).json();
}

/** The seat link of the playground: the token in the fragment. */
export function seatUrl(pg: Playground, created: Created, seat: number): string {
  const token = created.seatTokens[seat]!.token;
  return `${pg.url}/play/${created.game.id}#seat=${encodeURIComponent(token)}&side=${seat}`;
}

/** Opens both seats' pages, each in its own browser context; resolves when both show the game. */
export async function openSeats(pg: Playground, created: Created): Promise<[Page, Page]> {
  const pages: Page[] = [];
  for (const seat of [0, 1]) {
    const page = await pg.page(`seat ${seat}`, { viewport: { width: 900, height: 800 } });
    await page.goto(seatUrl(pg, created, seat));
    await page.locator('#status').waitFor();
    pages.push(page);
  }
  return pages as [Page, Page];
}

/** How many moves the page's move list shows. */
export const shownPlies = (page: Page): Promise<number> => page.locator('ol.moves li').count();

/** Waits until the page's move list has `ply` moves (no reload: they arrive over the stream). */
export async function waitForPly(page: Page, ply: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('ol.moves li').length === n, ply, {
    timeout: 10_000,
  });
}

/** Clicks a square or pit by its id (`e3`, `S4`). */
export async function click(page: Page, id: string): Promise<void> {
  await page.locator(`svg.board [data-id="${id}"]`).click();
}

/** The ids the page highlights with a class (`selectable`, `target`). */
export async function highlighted(page: Page, cls: 'selectable' | 'target'): Promise<string[]> {
  return page
    .locator(`svg.board .${cls}`)
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-id') ?? ''));
}

/**
 * One move by clicking only highlighted things: the first selectable piece or house, then, on grid
 * boards, the first highlighted target until the move is sent. Resolves when the page shows it.
 */
export async function playOneByClicking(page: Page): Promise<void> {
  const before = await shownPlies(page);
  await page.locator('svg.board .selectable').first().waitFor({ timeout: 10_000 });
  const [start] = await highlighted(page, 'selectable');
  await click(page, start!);
  for (let step = 0; step < 20 && (await shownPlies(page)) === before; step++) {
    const targets = await highlighted(page, 'target');
    if (targets.length === 0) break;
    await click(page, targets[0]!);
    await page.waitForFunction(
      ([n]) =>
        document.querySelectorAll('ol.moves li').length > n! ||
        !document.querySelector('#status')?.textContent?.includes('sending'),
      [before],
    );
  }
  await page.waitForFunction((n) => document.querySelectorAll('ol.moves li').length > n, before, {
    timeout: 10_000,
  });
}

/** The result the page shows, as the API spells it. */
export async function shownResult(
  page: Page,
): Promise<{ winner: string | null; reason: string | null; text: string }> {
  const status = page.locator('#status.finished');
  await status.waitFor({ timeout: 10_000 });
  return {
    winner: await status.getAttribute('data-winner'),
    reason: await status.getAttribute('data-reason'),
    text: (await status.textContent()) ?? '',
  };
}

/** Plays the game to its end, each page moving on its turn by clicking; both see every move live. */
export async function playToEnd(
  pg: Playground,
  id: string,
  pages: readonly [Page, Page],
  maxPlies = 60,
): Promise<any> {
  for (let i = 0; i < maxPlies; i++) {
    const game = await apiGame(pg, id);
    if (game.status === 'finished') return game;
    // Both pages have every move so far, live.
    await Promise.all(pages.map((p) => waitForPly(p, game.ply)));
    await playOneByClicking(pages[game.toMove as 0 | 1]);
  }
  throw new Error(`game ${id} not over after ${maxPlies} plies`);
}

/** The page's document inside page functions (the tests compile without DOM types). */
declare const document: {
  querySelectorAll(selector: string): { length: number };
  querySelector(selector: string): { textContent: string | null } | null;
};
