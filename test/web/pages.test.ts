// The playground's pages other than the game itself, in Chromium: the home page (five games with
// pictures of their starts and their rules), the create form (any kind, options from the kind's
// JSON Schema, time control, first; seat links that open the game page), the account page (a
// challenge arrives live over the feed and is accepted), and the games listing. axe-core finds no
// serious or critical violation on each; no page logs an error; screenshots go to test-output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { GAME_KINDS } from '../../src/engines/types';
import { playground } from '../support/browser';

const ROOT = join(__dirname, '..', '..');

describe('playground pages', () => {
  const pg = playground();

  const api = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
    const res = await fetch(`${pg.url}/api/v1${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined } as { status: number; body: any };
  };
  const suffix = () => Math.random().toString(36).slice(2, 8);
  const signUp = async (name: string) => {
    const res = await api('/accounts', { body: { username: name, kind: 'human' } });
    expect(res.status).toBe(201);
    return { id: res.body.account.id as string, token: res.body.token.token as string };
  };
  /** The page is no wider than the screen (nothing to scroll sideways). */
  const fitsWidth = (page: Page) =>
    page.evaluate(() => {
      const root = (globalThis as any).document.documentElement;
      return root.scrollWidth <= root.clientWidth;
    });

  it('home shows every kind with a picture of its start and a working rules link, creating nothing', async () => {
    const kinds = (await api('/kinds')).body.items as Array<{
      kind: string;
      name: string;
      rules: { path: string };
    }>;
    const gamesBefore = (await api('/games?limit=100')).body.items.length;
    const page = await pg.page('home');
    await page.goto(`${pg.url}/`);
    for (const kind of kinds) {
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: kind.name, exact: true }) });
      await card.getByRole('group', { name: `${kind.name} start position` }).waitFor();
    }
    expect(await page.locator('.kind-card').count()).toBe(kinds.length);
    expect(kinds).toHaveLength(GAME_KINDS.length);
    // The pictures are the API's start boards: a mancala start shows the default seeds in every house.
    const kalah = kinds.find((k) => k.kind === 'kalah')!;
    const seeds = (await api('/kinds')).body.items.find((k: any) => k.kind === 'kalah').defaults.seeds;
    const kalahCard = page
      .locator('.kind-card')
      .filter({ has: page.getByRole('heading', { name: kalah.name }) });
    expect(await kalahCard.getByRole('img', { name: `${seeds} seeds, south house 1` }).count()).toBe(1);
    expect((await api('/games?limit=100')).body.items.length).toBe(gamesBefore);
    expect(await pg.axe(page)).toEqual([]);
    await pg.screenshot(page, 'pages-home');

    for (const kind of kinds) {
      await page.goto(`${pg.url}/`);
      await page.getByRole('link', { name: `Rules of ${kind.name}` }).click();
      await page.getByRole('heading', { level: 1, name: kind.name }).waitFor();
      // The rules section shows the repository's page: its first heading, rendered.
      const markdown = readFileSync(join(ROOT, kind.rules.path), 'utf8');
      const firstHeading = /^#\s+(.+)$/m.exec(markdown)![1]!.replace(/[*_`]/g, '');
      const rules = page.getByRole('region', { name: `Rules of ${kind.name}` });
      await rules.getByRole('heading', { level: 2, name: firstHeading }).waitFor();
      if (kind === kalah) {
        expect(await pg.axe(page)).toEqual([]);
        await pg.screenshot(page, 'pages-rules-kalah');
      }
    }
  });

  it('creates a game of a chosen kind with options, time control and first; its seat links open the game', async () => {
    const page = await pg.page('creator');
    await page.goto(`${pg.url}/new`);
    await page.getByRole('combobox', { name: 'Game' }).selectOption('congkak');
    await page.getByRole('spinbutton', { name: 'Houses per side' }).fill('5');
    await page.getByRole('spinbutton', { name: 'Seeds per house' }).fill('3');
    // The preview is the API's start for these options.
    await page.getByRole('img', { name: '3 seeds, south house 5' }).waitFor();
    await page.getByLabel('Real time (Fischer clock)').check();
    await page.getByLabel('Minutes each').fill('4');
    await page.getByLabel('Increment (seconds)').fill('2');
    await page.getByLabel('Who moves first').selectOption('north');
    expect(await pg.axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create game' }).click();
    await page.getByRole('heading', { name: 'Game created' }).waitFor();
    await pg.screenshot(page, 'pages-new-game');
    expect(await pg.axe(page)).toEqual([]);

    const links = [
      await page.getByLabel('Seat link for south').inputValue(),
      await page.getByLabel('Seat link for north').inputValue(),
    ];
    const id = /\/play\/([A-Za-z0-9_-]{12})#/.exec(links[0]!)![1]!;
    const game = (await api(`/games/${id}`)).body;
    expect(game.kind).toBe('congkak');
    expect(game.options).toEqual({ houses: 5, seeds: 3 });
    expect(game.timeControl).toEqual({ type: 'realtime', initialSeconds: 240, incrementSeconds: 2 });
    expect(game.toMoveName).toBe('north');
    // The token is only in the fragment, and it is the seat's: south's is refused (north moves
    // first), north's plays.
    const tokens = links.map((link) => {
      const url = new URL(link);
      expect(url.pathname).toBe(`/play/${id}`);
      expect(url.search).toBe('');
      return new URLSearchParams(url.hash.slice(1)).get('seat')!;
    });
    const move = { move: game.legalMoves[0] };
    expect((await api(`/games/${id}/moves`, { token: tokens[0], body: move })).status).toBe(409);
    expect((await api(`/games/${id}/moves`, { token: tokens[1], body: move })).status).toBe(200);
    const seatPage = await pg.page('north');
    await seatPage.goto(links[1]!);
    await seatPage.getByRole('group', { name: /Congkak board/ }).waitFor();
    expect(new URL(seatPage.url()).pathname).toBe(`/play/${id}`);
  });

  it('signs up in the page, shows a challenge arriving live, accepts it, and lists the game', async () => {
    const name = `ben${suffix()}`;
    const ann = await signUp(`ann${suffix()}`);
    const page = await pg.page('ben');
    await page.goto(`${pg.url}/account`);
    expect(await pg.axe(page)).toEqual([]);
    await page.getByLabel('Username').fill(name);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.locator('[data-feed-status="live"]').waitFor();
    const token = await page.evaluate(() =>
      (globalThis as any).localStorage.getItem('boardhost.account.token'),
    );
    expect((await api('/account', { token })).body.username).toBe(name);

    const challenge = await api('/challenges', {
      token: ann.token,
      body: { to: name, kind: 'oware', options: { seeds: 5 }, starts: 'destination' },
    });
    expect(challenge.status).toBe(201);
    // Live: the feed event and the challenge, without reloading.
    await page.locator('.feed li[data-type="challenge.received"]').waitFor();
    const incoming = page.locator(`[data-list="incoming"] li[data-challenge="${challenge.body.id}"]`);
    await incoming.waitFor();
    expect(await pg.axe(page)).toEqual([]);
    await pg.screenshot(page, 'pages-account-challenge');
    await incoming.getByRole('button', { name: /^Accept/ }).click();
    await page
      .getByRole('status')
      .getByRole('link', { name: /Open the game/ })
      .waitFor();
    const accepted = (await api(`/challenges/${challenge.body.id}`)).body;
    expect(accepted.status).toBe('accepted');
    const gameId = accepted.gameId as string;
    // Ben starts: the game is on his "my turn" list, and the feed said it started.
    const seat = (await api(`/games/${gameId}`)).body.seats.findIndex((s: any) => s.account === name);
    expect(seat).toBeGreaterThanOrEqual(0);
    const mine = page.locator(`[data-list="my-turn"] a[href="/play/${gameId}#account&side=${seat}"]`);
    await mine.waitFor();
    await page.locator('.feed li[data-type="game.started"]').waitFor();
    await pg.screenshot(page, 'pages-account-accepted');

    // A second challenge is declined; it leaves the list, and the challenger hears why.
    const second = await api('/challenges', { token: ann.token, body: { to: name, kind: 'kalah' } });
    const line = page.locator(`[data-list="incoming"] li[data-challenge="${second.body.id}"]`);
    await line.getByRole('button', { name: /^Decline/ }).click();
    await line.waitFor({ state: 'detached' });
    expect((await api(`/challenges/${second.body.id}`)).body.status).toBe('declined');

    // A seek posted here waits, and once withdrawn, another account's seek does not meet it.
    await page.getByLabel('Seek a game of').selectOption('congo');
    await page.getByRole('button', { name: 'Post seek' }).click();
    const withdraw = page.getByRole('button', { name: /^Withdraw seek / });
    await withdraw.waitFor();
    await withdraw.click();
    await page.getByText(/^Seek .* withdrawn\.$/).waitFor();
    const other = await api('/seeks', { token: ann.token, body: { kind: 'congo' } });
    expect(other.body.status).toBe('waiting');
    expect(
      (await api(`/seeks/${other.body.id}`, { method: 'DELETE', token: ann.token })).status,
    ).toBeLessThan(300);

    // Forgetting the token returns to the sign-in forms and leaves no token in the browser.
    await page.getByRole('button', { name: 'Forget this account in this browser' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(
      await page.evaluate(() => (globalThis as any).localStorage.getItem('boardhost.account.token')),
    ).toBeNull();
    // Pasting the token back signs in again.
    await page.getByLabel('API token (bhp_…)').fill(token);
    await page.getByRole('button', { name: 'Use this token' }).click();
    await mine.click();
    // The game page, for the account's seat: the token stays in storage, not in the URL, and a
    // click on a house plays it as the account.
    await page.getByRole('group', { name: /Oware board/ }).waitFor();
    expect(page.url()).toBe(`${pg.url}/play/${gameId}#account&side=${seat}`);
    await page
      .getByRole('button', { name: /can sow/ })
      .first()
      .click();
    const deadline = Date.now() + 10_000;
    while ((await api(`/games/${gameId}`)).body.ply === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await api(`/games/${gameId}`)).body.ply).toBe(1);
  }, 90_000);

  it('with an account, the new game form sends a challenge with options, time control and who starts', async () => {
    const cy = await signUp(`cy${suffix()}`);
    const dee = await signUp(`dee${suffix()}`);
    const page = await pg.page('cy');
    await page.goto(`${pg.url}/account`);
    await page.getByLabel('API token (bhp_…)').fill(cy.token);
    await page.getByRole('button', { name: 'Use this token' }).click();
    await page.getByRole('heading', { level: 1, name: cy.id }).waitFor();
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'New game' }).click();
    await page.getByRole('combobox', { name: 'Game' }).selectOption('oware');
    // The option's label, hint and choices are the schema's title, description and x-enumNames.
    const grandSlam = page.getByRole('combobox', { name: 'Grand slam' });
    expect(await grandSlam.locator('option').allTextContents()).toEqual([
      'Captures nothing (the move is played)',
      'Captures them all',
    ]);
    expect(await page.locator('#option-grandSlam-hint').textContent()).toBe(
      "What a move that would capture all the opponent's seeds does. Default: Captures nothing (the move is played).",
    );
    await grandSlam.selectOption({ label: 'Captures them all' });
    await page.getByLabel('Correspondence (days per move)').check();
    await page.getByRole('spinbutton', { name: 'Days per move' }).fill('2');
    await page.getByLabel('Challenge an account').check();
    await page.getByLabel(/Username to challenge/).fill(dee.id);
    await page.getByRole('combobox', { name: 'Who moves first' }).selectOption('destination');
    expect(await pg.axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send challenge' }).click();
    await page.getByRole('heading', { name: 'Challenge sent' }).waitFor();
    const received = (await api('/challenges', { token: dee.token })).body.items;
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      kind: 'oware',
      options: { grandSlam: 'capture' },
      timeControl: { type: 'correspondence', daysPerMove: 2 },
      challenger: cy.id,
      destination: dee.id,
      starts: 'destination',
    });
  });

  it('lists ongoing and finished games and opens a game by its id', async () => {
    const ongoing = (await api('/games', { body: { kind: 'oware' } })).body;
    const finished = (await api('/games', { body: { kind: 'kalah' } })).body;
    const resigned = await api(`/games/${finished.game.id}/resign`, {
      method: 'POST',
      token: finished.seatTokens[0].token,
    });
    expect(resigned.status).toBe(200);
    const page = await pg.page('browser');
    await page.goto(`${pg.url}/games`);
    await page.locator(`[data-status="ongoing"] a[href="/play/${ongoing.game.id}"]`).waitFor();
    await page.locator(`[data-status="finished"] a[href="/play/${finished.game.id}"]`).waitFor();
    expect(await page.locator(`[data-status="ongoing"] a[href="/play/${finished.game.id}"]`).count()).toBe(0);
    expect(await pg.axe(page)).toEqual([]);
    await pg.screenshot(page, 'pages-games');
    await page.getByLabel(/Watch a game by its id/).fill(ongoing.game.id);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.waitForURL(`${pg.url}/play/${ongoing.game.id}`);
    await page.getByRole('group', { name: /Oware board/ }).waitFor();
  });

  it('works from the keyboard: Tab reaches the navigation, then the page; Enter opens a game by id', async () => {
    const created = (await api('/games', { body: { kind: 'kalah' } })).body;
    const page = await pg.page('keyboard');
    await page.goto(`${pg.url}/games`);
    await page.getByRole('heading', { level: 1, name: 'Games' }).waitFor();
    const focused = () =>
      page.evaluate(() => {
        const el = (globalThis as any).document.activeElement;
        return `${el.tagName.toLowerCase()}:${el.id || el.textContent.trim()}`;
      });
    const order: string[] = [];
    for (let i = 0; i < 9 && !order.includes('input:game-id'); i++) {
      await page.keyboard.press('Tab');
      order.push(await focused());
    }
    // The site navigation first, in its order, then the page's first field.
    const nav = ['a:Boardhost', 'a:New game', 'a:Lobby', 'a:Games', 'a:Account', 'a:REST docs', 'a:GraphiQL'];
    expect(order).toEqual([...nav, 'input:game-id']);
    await page.keyboard.type(created.game.id);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${pg.url}/play/${created.game.id}`);
    await page.getByRole('group', { name: /Kalah board/ }).waitFor();
  });

  it('fits a phone-sized screen', async () => {
    const page = await pg.page('phone', { viewport: { width: 360, height: 740 } });
    for (const path of ['/', '/new', '/account', '/games', '/kind/congo']) {
      await page.goto(`${pg.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      expect([path, await fitsWidth(page)]).toEqual([path, true]);
    }
    await page.goto(`${pg.url}/`);
    await page.locator('.kind-card svg').first().waitFor();
    await pg.screenshot(page, 'pages-home-phone');
  });
});
