// Playing the computer in the playground, in Chromium: from the new-game page a player starts a game
// against the AI at level 1 in each kind (no account: a seat link) and plays it to its end by
// clicking any highlighted move, the AI answering live; both players are named ("Computer, level
// 1"); from the home page and as an account (POST /challenges/ai) too; a refused start is shown as
// a sentence with its code in a details element; a rated challenge from the form.
import type { Page } from 'playwright-core';
import { GAME_KINDS } from '../../src/engines/types';
import { playground } from '../support/browser';
import { apiGame, playOneByClicking, shownResult } from '../support/play';

/** Options and start positions that keep games against a random player short (see the kinds' rules). */
const SHORT: Record<string, { options?: Record<string, string>; position?: string }> = {
  kalah: { options: { houses: '3', seeds: '2' } },
  congkak: { options: { houses: '5', seeds: '1' } },
  oware: { position: '0,0,0,0,0,1/0,0,0,0,0,1 stores 23-23 S' },
  'russian-draughts': { position: 'W:Wc3,e3:Bd6,f6' },
  congo: { position: '3l3/3p3/7/7/7/3P3/3L3 w' },
};

describe('playing the computer in the playground', () => {
  const pg = playground('memory', { app: { ai: { pool: { workers: 1 } } } });

  const api = async (path: string, init: { token?: string; body?: unknown } = {}) => {
    const res = await fetch(`${pg.url}/api/v1${path}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  /** The game id of the page's URL. */
  const gameIdOf = (page: Page) => /\/play\/([A-Za-z0-9_-]{12})/.exec(page.url())![1]!;

  /** Clicks a highlighted move whenever it is the player's turn, until the game is over. */
  async function playToEnd(page: Page, maxPlies = 200): Promise<any> {
    for (let i = 0; i < maxPlies; i++) {
      await page.waitForFunction(
        () =>
          document.querySelector('#status.finished') !== null ||
          document.querySelectorAll('svg.board .selectable').length > 0,
        undefined,
        { timeout: 20_000 },
      );
      if ((await page.locator('#status.finished').count()) > 0) return apiGame(pg, gameIdOf(page));
      await playOneByClicking(page);
    }
    throw new Error(`not over after ${maxPlies} of my moves`);
  }

  it.each(GAME_KINDS)(
    'plays a whole %s game against the computer at level 1 by clicking',
    async (kind) => {
      const page = await pg.page(`vs-ai-${kind}`);
      await page.goto(`${pg.url}/new?kind=${kind}`);
      const short = SHORT[kind]!;
      for (const [name, value] of Object.entries(short.options ?? {})) {
        await page.locator(`#option-${name}`).fill(value);
      }
      if (short.position) await page.getByLabel('Start position (optional)').fill(short.position);
      await page.getByLabel('Play the computer').check();
      await page.getByRole('combobox', { name: 'Computer level' }).selectOption('1');
      const seats = (await api('/kinds')).body.items.find((k: any) => k.kind === kind).seatNames as string[];
      await page.getByRole('combobox', { name: 'You play' }).selectOption(seats[0]!);
      await page.getByRole('button', { name: 'Play the computer' }).click();
      await page.waitForURL(/\/play\/[A-Za-z0-9_-]{12}#seat=/);
      // Both players named: the player's seat ("you") and the computer's level.
      const players = page.getByRole('list', { name: 'Players' });
      await players.getByText('Computer, level 1').waitFor();
      expect((await players.locator('li[data-seat="0"]').textContent())?.trim()).toBe(
        `${seats[0]}: Guest (you)`,
      );
      expect((await players.locator('li[data-seat="1"]').textContent())?.trim()).toBe(
        `${seats[1]}: Computer, level 1`,
      );
      const start = await apiGame(pg, gameIdOf(page));
      expect(start.seats[1].account).toBe('ai-level-1');
      if (short.position) expect(start.initialPosition).not.toBeNull();
      if (kind === 'kalah') {
        // The rows and stores are named on the board, and in their accessible names.
        expect(await page.locator('svg.board .row-labels text').allTextContents()).toEqual([
          'south store',
          'south houses',
          'north store',
          'north houses',
        ]);
        await page.getByRole('img', { name: '0 seeds, north store' }).waitFor();
        await page.getByRole('button', { name: '2 seeds, south house 1, can sow' }).waitFor();
        expect(await pg.axe(page)).toEqual([]);
        await pg.screenshot(page, 'computer-kalah-start');
      }

      const end = await playToEnd(page);
      expect(end.status).toBe('finished');
      const shown = await shownResult(page);
      expect([shown.winner, shown.reason]).toEqual([String(end.result.winner), end.result.reason]);
      // Every move, the player's and the computer's, in the page's list.
      await page.waitForFunction((n) => document.querySelectorAll('ol.moves li').length === n, end.ply);
      expect(end.moves.some((m: any) => m.seat === 1)).toBe(true);
      await pg.screenshot(page, `computer-${kind}-end`);
    },
    90_000,
  );

  it('starts a game against the computer from the home page', async () => {
    // On a phone-sized screen: the form and the game page fit its width.
    const page = await pg.page('home-ai', { viewport: { width: 360, height: 740 } });
    const fitsWidth = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    await page.goto(`${pg.url}/`);
    const form = page.getByRole('region', { name: 'Play the computer' });
    await form.getByRole('combobox', { name: 'Game' }).selectOption('oware');
    await form.getByRole('combobox', { name: 'Computer level' }).selectOption('2');
    await form.getByRole('combobox', { name: 'You play' }).selectOption('north');
    expect(await pg.axe(page)).toEqual([]);
    expect(await fitsWidth()).toBe(true);
    await form.getByRole('button', { name: 'Play the computer' }).click();
    await page.waitForURL(/\/play\/[A-Za-z0-9_-]{12}#seat=.*&side=1$/);
    await page.getByRole('list', { name: 'Players' }).getByText('Computer, level 2').waitFor();
    await page.getByText('You play north.').waitFor();
    const game = await apiGame(pg, gameIdOf(page));
    expect([game.kind, game.seats[0].account, game.seats[1].account]).toEqual(['oware', 'ai-level-2', null]);
    // The computer (south) moves first, by itself; then the player may move.
    await page.locator('svg.board .selectable').first().waitFor({ timeout: 20_000 });
    expect((await apiGame(pg, game.id)).ply).toBe(1);
    expect(await fitsWidth()).toBe(true);
    expect(await pg.axe(page)).toEqual([]);
    await pg.screenshot(page, 'computer-oware-phone');
  }, 60_000);

  it('as an account, plays the computer with its account (named), and sends a rated challenge', async () => {
    const name = `eve${Math.random().toString(36).slice(2, 8)}`;
    const other = `fay${Math.random().toString(36).slice(2, 8)}`;
    const eve = await api('/accounts', { body: { username: name } });
    const fay = await api('/accounts', { body: { username: other } });
    expect([eve.status, fay.status]).toEqual([201, 201]);
    const page = await pg.page('eve');
    await page.goto(`${pg.url}/account`);
    await page.getByLabel('API token (bhp_…)').fill(eve.body.token.token);
    await page.getByRole('button', { name: 'Use this token' }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();

    await page.goto(`${pg.url}/new?kind=kalah`);
    await page.getByLabel('Play the computer').check();
    await page.getByRole('combobox', { name: 'Computer level' }).selectOption('1');
    await page.getByRole('button', { name: 'Play the computer' }).click();
    await page.waitForURL(/\/play\/[A-Za-z0-9_-]{12}#account&side=[01]$/);
    const game = await apiGame(pg, gameIdOf(page));
    const mine = game.seats.findIndex((s: any) => s.account === name);
    expect(game.seats[1 - mine].account).toBe('ai-level-1');
    const players = page.getByRole('list', { name: 'Players' });
    await players.locator(`li[data-seat="${mine}"]`).getByText(name).waitFor();
    expect((await players.locator(`li[data-seat="${mine}"]`).textContent())?.trim()).toBe(
      `${game.seats[mine].name}: ${name} (you)`,
    );

    // A rated challenge from the form: the rated choice reaches the API.
    await page.goto(`${pg.url}/new?kind=oware`);
    await page.getByLabel('Challenge an account').check();
    await page.getByLabel(/Username to challenge/).fill(other);
    await page.getByLabel('Rated game').check();
    expect(await pg.axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send challenge' }).click();
    await page.getByRole('heading', { name: 'Challenge sent' }).waitFor();
    const received = (await api('/challenges', { token: fay.body.token.token })).body.items;
    expect(received.map((c: any) => [c.challenger, c.rated])).toEqual([[name, true]]);
    // Accepted, the rated game names both players with their ratings.
    const accepted = await api(`/challenges/${received[0].id}/accept`, {
      token: fay.body.token.token,
      body: {},
    });
    expect(accepted.status).toBe(200);
    const rated = await apiGame(pg, accepted.body.gameId);
    await page.goto(`${pg.url}/play/${rated.id}`);
    const seat = rated.seats.find((s: any) => s.account === other);
    await page
      .getByRole('list', { name: 'Players' })
      .getByText(`${other} (${seat.rating}${seat.provisional ? '?' : ''})`)
      .waitFor();
    await page.getByRole('list', { name: 'Players' }).getByText('Rated game').waitFor();
  }, 60_000);

  it('shows a refused start as a sentence, the code in a details element', async () => {
    const page = await pg.page('refused');
    await page.goto(`${pg.url}/new?kind=kalah`);
    await page.getByLabel('Start position (optional)').fill('not a position');
    await page.getByLabel('Play the computer').check();
    await page.getByRole('button', { name: 'Play the computer' }).click();
    const alert = page.locator('#new-game-error [role="alert"]');
    await alert.waitFor();
    expect(await alert.locator('p').first().textContent()).toMatch(
      /^The start position was not accepted .*: check it against the notation below the field/,
    );
    // The code stays out of the sentence, in the collapsed details.
    expect(await alert.locator('p').first().textContent()).not.toContain('INVALID_POSITION');
    expect(await alert.locator('details').getAttribute('open')).toBeNull();
    await alert.getByText('Details').click();
    await alert.locator('details code').getByText('INVALID_POSITION').waitFor();
    expect(await pg.axe(page)).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/new');

    // A game page of an id no game has says so in words.
    await page.goto(`${pg.url}/play/AAAAAAAAAAAA`);
    const missing = page.getByRole('alert');
    await missing.getByText('There is no game with this id: check the link.').waitFor();
    await missing.getByText('Details').click();
    await missing.locator('code').getByText('GAME_NOT_FOUND').waitFor();
    // Chromium logs the refused requests (the preview's, the start's, the game's); nothing else.
    const logged = pg.errors.splice(0);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.filter((e) => !/status of (400 \(Bad Request\)|404 \(Not Found\))/.test(e))).toEqual([]);
  });
});

/** The page's document inside page functions (the tests compile without DOM types). */
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(selector: string): { length: number };
  querySelector(selector: string): unknown;
};
