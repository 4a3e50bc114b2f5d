// The lobby page in Chromium: a seek posted from one account's page appears live in another
// account's lobby (and an anonymous visitor's, without an Accept button), is accepted there, and
// both end up in the game: the acceptor at once, the poster told by its feed. Filters narrow the
// list; withdrawing a seek removes it everywhere. axe-core finds nothing serious; a 360 px phone fits.
import type { Page } from 'playwright-core';
import { playground } from '../support/browser';
import { accountPage, newAccount, rest, seatOf } from '../support/social';

describe('the lobby page', () => {
  const pg = playground();

  const fitsWidth = (page: Page) =>
    page.evaluate(() => {
      const root = (globalThis as any).document.documentElement;
      return root.scrollWidth <= root.clientWidth;
    });
  const live = (page: Page) => page.locator('[data-lobby-status="live"]').waitFor();

  it('shows a seek posted in one page live in the others; another account accepts it and both play', async () => {
    const ada = await newAccount(pg, 'ada');
    const bob = await newAccount(pg, 'bob');
    const poster = await accountPage(pg, ada);
    const taker = await accountPage(pg, bob, { width: 360, height: 740 });
    const visitor = await pg.page('visitor');
    for (const page of [poster, taker, visitor]) {
      await page.goto(`${pg.url}/lobby`);
      await page.getByRole('heading', { level: 1, name: 'Lobby' }).waitFor();
      await live(page);
    }
    await taker.getByText('No open seeks right now.').waitFor();
    expect(await pg.axe(poster)).toEqual([]);

    // Ada posts a correspondence Oware seek with an option, from the form.
    await poster.getByLabel('Game', { exact: true }).selectOption('oware');
    await poster.getByRole('spinbutton', { name: 'seeds' }).fill('5');
    await poster.getByLabel('Correspondence (days per move)').check();
    await poster.getByRole('button', { name: 'Post seek' }).click();
    await poster.getByText(/^Your seek is listed until/).waitFor();
    const seeks = (await rest(pg, '/seeks')).body.items;
    expect(seeks).toHaveLength(1);
    const seek = seeks[0];
    expect(seek).toMatchObject({ kind: 'oware', options: { seeds: 5 }, username: ada.username });
    expect(seek.timeControl.type).toBe('correspondence');

    // Live in every lobby: Bob may accept it, Ada may withdraw it, the visitor only sees it.
    const line = (page: Page) => page.locator(`li[data-seek="${seek.id}"]`);
    const label = `Oware by ${ada.username}`;
    await line(taker)
      .getByRole('button', { name: `Accept ${label}` })
      .waitFor();
    await line(poster)
      .getByRole('button', { name: `Withdraw ${label}` })
      .waitFor();
    await line(visitor).waitFor();
    expect(await line(visitor).getByRole('button').count()).toBe(0);
    expect(await line(taker).textContent()).toMatch(/3 d\/move, casual, Seeds per house 5\b/);
    // A filter for another game hides it; back to any game shows it again.
    await visitor.getByLabel('Filter by game').selectOption('congo');
    await live(visitor);
    await visitor.getByText('No open seeks right now.').waitFor();
    await visitor.getByLabel('Filter by game').selectOption('');
    await line(visitor).waitFor();

    expect(await fitsWidth(taker)).toBe(true);
    expect(await pg.axe(taker)).toEqual([]);
    await pg.screenshot(taker, 'lobby-phone');

    // Bob accepts: his page opens the game as his seat; Ada's feed says her seek became a game.
    await line(taker)
      .getByRole('button', { name: `Accept ${label}` })
      .click();
    await taker.waitForURL(/\/play\/[A-Za-z0-9_-]{12}#account&side=[01]$/);
    const gameId = /\/play\/([A-Za-z0-9_-]{12})#/.exec(taker.url())![1]!;
    const game = (await rest(pg, `/games/${gameId}`)).body;
    expect(game).toMatchObject({ kind: 'oware', options: { seeds: 5 } });
    expect(taker.url()).toBe(`${pg.url}/play/${gameId}#account&side=${seatOf(game, bob)}`);
    await taker.getByText(`You play ${game.seats[seatOf(game, bob)].name}.`).waitFor();
    const started = poster.getByRole('link', { name: `play game ${gameId}` });
    await started.waitFor();
    // The seek left every lobby.
    await line(poster).waitFor({ state: 'detached' });
    await line(visitor).waitFor({ state: 'detached' });
    expect((await rest(pg, '/seeks')).body.items).toEqual([]);
    await started.click();
    await poster.getByText(`You play ${game.seats[seatOf(game, ada)].name}.`).waitFor();
  }, 60_000);

  it('shows a rating range; an account outside it is told so; a withdrawn seek leaves the other lobbies', async () => {
    const cy = await newAccount(pg, 'cy');
    const dan = await newAccount(pg, 'dan');
    const page = await accountPage(pg, cy);
    const other = await accountPage(pg, dan);
    for (const p of [page, other]) {
      await p.goto(`${pg.url}/lobby`);
      await live(p);
    }
    await page.getByLabel('Rated game').check();
    await page.getByLabel('Lowest rating (optional)').fill('1900');
    await page.getByRole('button', { name: 'Post seek' }).click();
    const line = (p: Page) => p.locator('li[data-seek]', { hasText: cy.username });
    await line(other).waitFor();
    // Only what differs from the kind's defaults is listed (none here), then the range.
    expect(await line(other).textContent()).toMatch(/unlimited, rated, opponents rated 1900–any/);
    const seek = (await rest(pg, '/seeks')).body.items.find(
      (s: { username: string }) => s.username === cy.username,
    );
    expect([seek.rated, seek.ratingRange]).toEqual([true, { min: 1900, max: null }]);
    // Dan (a new account, rated about 1500) may not take it: the page says why, in words.
    await line(other)
      .getByRole('button', { name: /^Accept/ })
      .click();
    await line(other)
      .getByText('Your rating is outside the range this seek admits. (RATING_OUT_OF_RANGE)')
      .waitFor();
    expect(await pg.axe(other)).toEqual([]);
    // Chromium logs the refused request (403); nothing else.
    expect(pg.errors.splice(0).filter((e) => !/status of 403 \(Forbidden\)/.test(e))).toEqual([]);
    await line(page)
      .getByRole('button', { name: /^Withdraw/ })
      .click();
    await line(other).waitFor({ state: 'detached' });
    expect((await rest(pg, '/seeks')).body.items).toEqual([]);
  }, 40_000);
});
