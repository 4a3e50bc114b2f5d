// The game page's social parts, in Chromium, two accounts in two browser contexts: a takeback asked,
// declined, asked again and accepted (both move lists shrink live); chat both ways, during the game
// and after it; a rematch offered, declined, offered by the other and accepted — both pages end up
// in the new game with the colours swapped. axe-core and a phone-sized screen on the way.
import type { Page } from 'playwright-core';
import { playground } from '../support/browser';
import {
  apiGame,
  click,
  createGame,
  openSeats,
  playOneByClicking,
  shownResult,
  waitForPly,
} from '../support/play';
import { accountGame, accountPage, newAccount, rest, seatOf, type TestAccount } from '../support/social';

describe('the game page: takeback, chat and rematch', () => {
  const pg = playground();

  async function openAs(account: TestAccount, game: any, viewport?: { width: number; height: number }) {
    const page = await accountPage(pg, account, viewport);
    const seat = seatOf(game, account);
    await page.goto(`${pg.url}/play/${game.id}#account&side=${seat}`);
    await page.getByText(`You play ${game.seats[seat].name}.`).waitFor();
    await page.locator('.live').waitFor();
    return page;
  }
  const chatLines = (page: Page) =>
    page.locator('.chat-messages li').evaluateAll((els) => els.map((e) => e.textContent ?? ''));

  it('asks for a takeback, is declined, asks again and is granted; both pages lose the moves live', async () => {
    const ada = await newAccount(pg, 'ada');
    const bob = await newAccount(pg, 'bob');
    const game = await accountGame(pg, ada, bob, { kind: 'russian-draughts' });
    expect(seatOf(game, ada)).toBe(0);
    expect(game.settings).toEqual({ takeback: true, chat: 'seats' });
    const white = await openAs(ada, game);
    const black = await openAs(bob, game);
    // Nothing to take back yet: the button is there but disabled.
    expect(await white.getByRole('button', { name: 'Ask to take back' }).isDisabled()).toBe(true);

    await click(white, 'c3');
    await click(white, 'd4');
    await waitForPly(black, 1);
    await playOneByClicking(black);
    await waitForPly(white, 2);

    // White asks: two plies (its move and Black's reply). Black declines.
    await white.getByRole('button', { name: 'Ask to take back' }).click();
    await white.getByRole('button', { name: 'Takeback requested (2 moves)' }).waitFor();
    await black.getByText('white asks to take back 2 moves.').waitFor();
    expect(await pg.axe(black)).toEqual([]);
    await pg.screenshot(black, 'social-takeback-offered');
    await black.getByRole('button', { name: 'Decline takeback' }).click();
    await white.getByText('black declined the takeback.').waitFor();
    await white.getByRole('button', { name: 'Ask to take back' }).waitFor();
    expect((await apiGame(pg, game.id)).ply).toBe(2);

    // Asked again and accepted: both move lists are empty again, and the board is the start.
    await white.getByRole('button', { name: 'Ask to take back' }).click();
    await black.getByRole('button', { name: 'Accept takeback' }).click();
    await waitForPly(white, 0);
    await waitForPly(black, 0);
    const after = await apiGame(pg, game.id);
    expect([after.ply, after.moves, after.takebackOffer]).toEqual([0, [], null]);
    expect(await white.locator('svg.board [data-id="d4"] .piece').count()).toBe(0);
    // White plays again from the start, by clicking.
    await playOneByClicking(white);
    await waitForPly(black, 1);
  }, 60_000);

  it('chats both ways during the game and after it; a spectator reads nothing in a seats-only chat', async () => {
    const cy = await newAccount(pg, 'cy');
    const dee = await newAccount(pg, 'dee');
    const game = await accountGame(pg, cy, dee, { kind: 'kalah', options: { houses: 4, seeds: 2 } });
    const south = await openAs(cy, game);
    const north = await openAs(dee, game, { width: 360, height: 740 });

    // During the game the messages come over the game's stream: the page does not ask for them.
    const chatReads = { north: 0 };
    north.on('request', (request) => {
      if (request.method() === 'GET' && /\/chat(\?|$)/.test(request.url())) chatReads.north += 1;
    });
    await south.getByLabel('Your message').fill('good luck!');
    await south.getByRole('button', { name: 'Send' }).click();
    await north.locator('.chat-messages li', { hasText: 'good luck!' }).waitFor();
    expect(await chatLines(north)).toEqual([`${cy.username}: good luck!`]);
    expect(await chatLines(south)).toEqual(['You: good luck!']);
    await north.getByLabel('Your message').fill('you too');
    await north.getByRole('button', { name: 'Send' }).click();
    await south.locator('.chat-messages li', { hasText: 'you too' }).waitFor();
    expect(await chatLines(south)).toEqual(['You: good luck!', `${dee.username}: you too`]);
    expect(chatReads.north).toBe(0);

    // North mutes South: South's next message is hidden from North (page and API) until unmuted.
    await north.getByRole('button', { name: 'Mute south' }).click();
    await north.locator('button[aria-pressed="true"]', { hasText: 'Mute south' }).waitFor();
    await south.getByLabel('Your message').fill('psst');
    await south.getByRole('button', { name: 'Send' }).click();
    await south.locator('.chat-messages li', { hasText: 'psst' }).waitFor();
    const muted = await rest(pg, `/games/${game.id}/chat`, { token: dee.token });
    expect([muted.body.muted, muted.body.items.map((m: any) => m.text)]).toEqual([true, ['you too']]);
    expect(await chatLines(north)).toEqual(['You: you too']);
    await north.getByRole('button', { name: 'Mute south' }).click();
    await north.locator('.chat-messages li', { hasText: 'psst' }).waitFor();
    expect(await chatLines(north)).toEqual([
      `${cy.username}: good luck!`,
      'You: you too',
      `${cy.username}: psst`,
    ]);

    // The phone fits, chat included; axe finds nothing serious.
    const fits = await north.evaluate(() => {
      const root = (globalThis as any).document.documentElement;
      return root.scrollWidth <= root.clientWidth;
    });
    expect(fits).toBe(true);
    expect(await pg.axe(north)).toEqual([]);
    await pg.screenshot(north, 'social-chat-phone');

    // A spectator sees no chat (seats only) and is offered no message field.
    const watcher = await pg.page('watcher');
    await watcher.goto(`${pg.url}/play/${game.id}`);
    await watcher.getByText('You are watching.').waitFor();
    expect(await watcher.getByRole('heading', { name: 'Chat' }).count()).toBe(0);

    // After the game, the chat goes on (over the stream, which a seat's page keeps open).
    await south.getByRole('button', { name: 'Resign' }).click();
    await south.getByRole('button', { name: 'Confirm resignation' }).click();
    await shownResult(north);
    await north.getByLabel('Your message').fill('well played');
    await north.getByRole('button', { name: 'Send' }).click();
    await south.locator('.chat-messages li', { hasText: 'well played' }).waitFor();
    const listed = await rest(pg, `/games/${game.id}/chat`, { token: cy.token });
    expect(listed.body.items.map((m: any) => [m.name, m.text])).toEqual([
      [cy.username, 'good luck!'],
      [dee.username, 'you too'],
      [cy.username, 'psst'],
      [dee.username, 'well played'],
    ]);
  }, 60_000);

  it('offers a rematch, is declined; the other offers and it is accepted; both pages open the new game', async () => {
    const eve = await newAccount(pg, 'eve');
    const fay = await newAccount(pg, 'fay');
    const game = await accountGame(pg, eve, fay, { kind: 'congo' });
    const white = await openAs(eve, game);
    const black = await openAs(fay, game);
    // No rematch while the game goes on.
    expect(await white.getByRole('button', { name: 'Offer a rematch' }).count()).toBe(0);
    await black.getByRole('button', { name: 'Resign' }).click();
    await black.getByRole('button', { name: 'Confirm resignation' }).click();
    await shownResult(white);

    // The offer reaches Black over the finished game's stream: its page does not ask for the game.
    let gameReads = 0;
    black.on('request', (request) => {
      if (request.url().endsWith(`/api/v1/games/${game.id}`)) gameReads += 1;
    });
    await white.getByRole('button', { name: 'Offer a rematch' }).click();
    await white.getByRole('button', { name: 'Rematch offered' }).waitFor();
    await black.getByText('white offers a rematch.').waitFor();
    expect(gameReads).toBe(0);
    expect(await pg.axe(black)).toEqual([]);
    await black.getByRole('button', { name: 'Decline rematch' }).click();
    await white.getByText('black declined the rematch.').waitFor();
    expect((await apiGame(pg, game.id)).rematch).toMatchObject({
      offeredBy: null,
      declinedBy: 1,
      game: null,
    });

    await black.getByRole('button', { name: 'Offer a rematch' }).click();
    await white.getByText('black offers a rematch.').waitFor();
    await white.getByRole('button', { name: 'Accept rematch' }).click();
    // The acceptor goes to the new game at once; the offerer is shown the way there.
    await white.waitForURL(/\/play\/[A-Za-z0-9_-]{12}#account&side=1$/);
    const next = (await apiGame(pg, game.id)).rematch.game as string;
    expect(white.url()).toBe(`${pg.url}/play/${next}#account&side=1`);
    await black.getByRole('link', { name: 'Play the rematch' }).click();
    await black.waitForURL(`${pg.url}/play/${next}#account&side=0`);
    const rematch = await apiGame(pg, next);
    expect(rematch.rematchOf).toBe(game.id);
    expect([seatOf(rematch, eve), seatOf(rematch, fay)]).toEqual([1, 0]);
    await white.getByText('You play black.').waitFor();
    await black.getByText('You play white.').waitFor();
    await black.getByText(`A rematch of game ${game.id}.`).waitFor();
    // Fay, now White, moves first by clicking; Eve sees it live.
    await playOneByClicking(black);
    await waitForPly(white, 1);
    await pg.screenshot(white, 'social-rematch');
  }, 60_000);

  it('plays a rematch of a seat-link game: each seat gets its new seat link', async () => {
    const created = await createGame(pg, { kind: 'kalah', options: { houses: 4, seeds: 2 } });
    const [south, north] = await openSeats(pg, created);
    await north.getByRole('button', { name: 'Resign' }).click();
    await north.getByRole('button', { name: 'Confirm resignation' }).click();
    await shownResult(south);
    await south.getByRole('button', { name: 'Offer a rematch' }).click();
    await north.getByRole('button', { name: 'Accept rematch' }).click();
    // North goes to its new seat (south now, colours swapped) by its new seat link.
    await north.waitForURL(/\/play\/[A-Za-z0-9_-]{12}#seat=.+&side=0$/);
    await north.getByText('You play south.').waitFor();
    const next = (await apiGame(pg, created.game.id)).rematch.game as string;
    expect(new URL(north.url()).pathname).toBe(`/play/${next}`);
    // South asks for its own new link with its old token.
    await south.getByRole('button', { name: 'Play the rematch' }).click();
    await south.waitForURL(/\/play\/[A-Za-z0-9_-]{12}#seat=.+&side=1$/);
    await south.getByText('You play north.').waitFor();
    expect(new URL(south.url()).pathname).toBe(`/play/${next}`);
    // The links hold working seat tokens: the new South (the old North) moves first, by clicking.
    await playOneByClicking(north);
    await waitForPly(south, 1);
    expect((await apiGame(pg, next)).ply).toBe(1);
  }, 60_000);

  it('against the computer: a takeback and a rematch are granted at once', async () => {
    const res = await rest(pg, '/games/ai', { body: { kind: 'russian-draughts', level: 1, seat: 'white' } });
    expect(res.status).toBe(201);
    const { game, seatTokens } = res.body;
    const [mine] = seatTokens;
    const page = await pg.page('against the computer');
    await page.goto(`${pg.url}/play/${game.id}#seat=${encodeURIComponent(mine.token)}&side=${mine.seat}`);
    await page.locator('.live').waitFor();
    await playOneByClicking(page);
    await waitForPly(page, 2); // the computer answered
    await page.getByRole('button', { name: 'Ask to take back' }).click();
    await waitForPly(page, 0);
    expect((await apiGame(pg, game.id)).ply).toBe(0);

    await page.getByRole('button', { name: 'Resign' }).click();
    await page.getByRole('button', { name: 'Confirm resignation' }).click();
    await shownResult(page);
    await page.getByRole('button', { name: 'Offer a rematch' }).click();
    // Black now; the computer, White, moves first in the new game.
    await page.waitForURL(/\/play\/[A-Za-z0-9_-]{12}#seat=.+&side=1$/);
    await page.getByText('You play black.').waitFor();
    await waitForPly(page, 1);
    const next = await apiGame(pg, /\/play\/([A-Za-z0-9_-]{12})#/.exec(page.url())![1]!);
    expect(next.rematchOf).toBe(game.id);
  }, 60_000);

  it('in a game whose chat is for everyone, spectators read it and those with an account write', async () => {
    const gil = await newAccount(pg, 'gil');
    const created = await createGame(pg, { kind: 'oware', settings: { chat: 'everyone' } });
    expect((await apiGame(pg, created.game.id)).settings).toEqual({ takeback: true, chat: 'everyone' });
    const [south] = await openSeats(pg, created);
    const fan = await accountPage(pg, gil);
    await fan.goto(`${pg.url}/play/${created.game.id}`);
    await fan.getByText('You are watching.').waitFor();
    const anonymous = await pg.page('anonymous');
    await anonymous.goto(`${pg.url}/play/${created.game.id}`);
    await anonymous.getByText('Sign in with an account to write here.').waitFor();
    expect(await anonymous.getByLabel('Your message').count()).toBe(0);

    await fan.getByLabel('Your message').fill('go south!');
    await fan.getByRole('button', { name: 'Send' }).click();
    for (const page of [south, anonymous]) {
      await page.locator('.chat-messages li', { hasText: 'go south!' }).waitFor();
    }
    expect(await chatLines(south)).toEqual([`${gil.username}: go south!`]);
    expect(await south.locator('.chat-messages li').getAttribute('data-seat')).toBe('spectator');
    await south.getByLabel('Your message').fill('thanks');
    await south.getByRole('button', { name: 'Send' }).click();
    await fan.locator('.chat-messages li', { hasText: 'thanks' }).waitFor();
    expect(await chatLines(anonymous)).toEqual([`${gil.username}: go south!`, 'south: thanks']);
    expect(await pg.axe(anonymous)).toEqual([]);
  }, 60_000);
});
