// Playing as an account: two accounts (their API tokens in the browser's storage, as the account
// page keeps them) open the game their challenge became and play it to its end by clicking; the
// page acts for the seat the account holds, with no seat link.
import { playground, type Playground } from '../support/browser';
import { apiGame, playToEnd, shownResult } from '../support/play';

async function post(pg: Playground, path: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(`${pg.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

describe('the game page for an account', () => {
  const pg = playground();

  it('acts for the seat of the account stored in the browser', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const ada = await post(pg, '/accounts', { username: `ada${suffix}` });
    const bob = await post(pg, '/accounts', { username: `bob${suffix}` });
    const challenge = await post(
      pg,
      '/challenges',
      { to: bob.account.username, kind: 'kalah', options: { houses: 3, seeds: 2 } },
      ada.token.token,
    );
    const accepted = await post(pg, `/challenges/${challenge.id}/accept`, {}, bob.token.token);
    const game = await apiGame(pg, accepted.gameId);
    const seatOf = (id: string) => game.seats.find((s: any) => s.account === id).seat as number;

    const pages: any[] = [];
    for (const signedUp of [ada, bob]) {
      const page = await pg.page(signedUp.account.username);
      await page.goto(`${pg.url}/`);
      await page.evaluate(
        (value) => (globalThis as any).localStorage.setItem('boardhost.account', value),
        JSON.stringify({
          token: signedUp.token.token,
          id: signedUp.account.id,
          username: signedUp.account.username,
        }),
      );
      await page.goto(`${pg.url}/play/${game.id}`);
      const seat = seatOf(signedUp.account.id);
      await page.getByText(`You play ${game.seats[seat].name}.`).waitFor();
      pages[seat] = page;
    }
    const end = await playToEnd(pg, game.id, [pages[0], pages[1]]);
    for (const page of pages) {
      const shown = await shownResult(page);
      expect([shown.winner, shown.reason]).toEqual([String(end.result.winner), end.result.reason]);
    }
    // Without the account, the same page only watches.
    const stranger = await pg.page('stranger');
    await stranger.goto(`${pg.url}/play/${game.id}`);
    await stranger.getByText('You are watching.').waitFor();
  }, 40_000);
});
