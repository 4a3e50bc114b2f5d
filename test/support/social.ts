// Two accounts in two browser contexts, for the playground's social tests (takeback, rematch, chat,
// lobby): accounts made over REST, each page holding its account's token as the account page keeps
// it (localStorage), and small REST calls to check what the pages did.
import type { Page } from 'playwright-core';
import type { Playground } from './browser';

export interface TestAccount {
  readonly id: string;
  readonly username: string;
  readonly token: string;
}

/** A REST call; the parsed body and status. */
export async function rest(
  pg: Playground,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${pg.url}/api/v1${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A new account named `<prefix><random>`. */
export async function newAccount(pg: Playground, prefix: string): Promise<TestAccount> {
  const username = `${prefix}${Math.random().toString(36).slice(2, 8)}`;
  const res = await rest(pg, '/accounts', { body: { username, kind: 'human' } });
  if (res.status !== 201) throw new Error(`sign up ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.account.id, username: res.body.account.username, token: res.body.token.token };
}

/** A page in its own browser context holding `account`'s token, as the account page keeps it. */
export async function accountPage(
  pg: Playground,
  account: TestAccount,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const page = await pg.page(account.username, viewport ? { viewport } : undefined);
  await page.goto(`${pg.url}/`);
  await page.evaluate(
    (token) => (globalThis as any).localStorage.setItem('boardhost.account.token', token),
    account.token,
  );
  return page;
}

/** A game between two accounts: `a` challenges `b`, `b` accepts; the game. */
export async function accountGame(
  pg: Playground,
  a: TestAccount,
  b: TestAccount,
  body: Record<string, unknown>,
): Promise<any> {
  const challenge = await rest(pg, '/challenges', {
    token: a.token,
    body: { to: b.username, starts: 'challenger', ...body },
  });
  if (challenge.status !== 201) throw new Error(`challenge: ${JSON.stringify(challenge.body)}`);
  const accepted = await rest(pg, `/challenges/${challenge.body.id}/accept`, { token: b.token, body: {} });
  if (accepted.status >= 300) throw new Error(`accept: ${JSON.stringify(accepted.body)}`);
  return (await rest(pg, `/games/${accepted.body.gameId}`)).body;
}

/** The seat `account` holds in `game`. */
export function seatOf(game: any, account: TestAccount): number {
  return game.seats.find((s: any) => s.account === account.id).seat;
}
