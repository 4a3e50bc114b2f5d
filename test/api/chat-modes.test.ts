// When chat is off, and who chats in each mode, on both stores (REST and GraphQL): the server's
// CHAT=off, an app's `chat` setting (the admin API sets it), the game's mode (off, everyone: any
// account that may read the game sends, anyone who may read it reads), a private game's chat as
// hidden as the game, webhooks of chat.message through the feed, and the retention in time.
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, rest, type Running, type StoreKind } from '../support/app';
import { appAccount, newApp } from '../support/apps';
import { challengeGame } from '../support/clocks';
import { failure, ok } from '../support/graphql';
import { readStream } from '../support/stream-reader';
import { startReceiver } from '../support/webhook-receiver';
import { CHAT_RETENTION_MS } from '../../src/service/game/chat';
import type { StoredGame } from '../../src/store/store';

const harness = appHarness();
afterAll(() => harness.stopAll());

const OPERATOR_KEY = 'chat-operator-key-0123456789abcdef';
const SEND = 'mutation ($id: ID!, $text: String!) { sendChat(gameId: $id, text: $text) { id text } }';

/** A game stored as the service makes it, with a chat mode and an audience (until games take `settings`). */
async function gameWith(
  run: Running,
  spec: { accounts?: [string | null, string | null]; chat?: string; app?: string; visibility?: 'private' },
): Promise<StoredGame> {
  const games = run.app.services.games;
  const game = games.newGame({
    kind: 'kalah',
    options: games.parseOptions(games.engineFor('kalah'), {}),
    first: 0,
    accounts: spec.accounts ?? [null, null],
    timeControl: { type: 'unlimited' },
    at: new Date().toISOString(),
    audience: {
      ...(spec.app ? { app: spec.app } : {}),
      ...(spec.visibility ? { visibility: spec.visibility } : {}),
    },
  });
  const stored = { ...game, ...(spec.chat ? { settings: { chat: spec.chat } } : {}) } as StoredGame;
  await run.storage.games.create(stored);
  return stored;
}

describe.each<StoreKind>(['memory', 'redis'])('chat modes on %s', (store) => {
  let run: Running;
  let off: Running;
  let a: TestAccount;
  let b: TestAccount;
  let watcher: TestAccount;
  beforeAll(async () => {
    run = await harness.start(store, { app: { operatorKey: OPERATOR_KEY } });
    off = await harness.start(store, { app: { chat: false } });
    [a, b, watcher] = [
      await signUp(run.app, 'ma', 'human'),
      await signUp(run.app, 'mb'),
      await signUp(run.app, 'mw'),
    ];
  });
  const send = (r: Running, who: TestAccount | null, id: string, text = 'hi') =>
    rest(r, who, 'POST', `/games/${id}/chat`, { text });
  const list = (r: Running, who: TestAccount | null, id: string) => rest(r, who, 'GET', `/games/${id}/chat`);

  it('is off on a server with CHAT=off, whatever the game, while the game stream goes on without it', async () => {
    const x = await signUp(off.app, 'ox', 'human');
    const y = await signUp(off.app, 'oy', 'human');
    const game = await challengeGame(off, x, y);
    for (const answer of [
      await send(off, x, game.id),
      await list(off, x, game.id),
      await rest(off, y, 'PUT', `/games/${game.id}/chat/mute`),
    ]) {
      expect([answer.status, answer.body.code, answer.body.by]).toEqual([403, 'CHAT_DISABLED', 'server']);
    }
    const refused = await failure(off.url, x.token, SEND, { id: game.id, text: 'hi' });
    expect([refused.code, refused.by]).toEqual(['CHAT_DISABLED', 'server']);
    const stream = await readStream(`${off.url}/api/v1/games/${game.id}/stream`, {
      ...x.auth,
      accept: 'application/x-ndjson',
    });
    try {
      expect((await stream.next()).type).toBe('game');
    } finally {
      stream.close();
    }
  });

  it('follows the app’s chat setting, which the admin API shows and changes', async () => {
    const app = await newApp(run.app, { chat: false });
    const admin = { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' };
    const shown = await fetch(`${run.url}/api/v1/admin/apps/${app.id}`, { headers: admin });
    expect(((await shown.json()) as { settings: { chat: boolean } }).settings.chat).toBe(false);
    const account = await challengeGame(run, a, b);
    // An app account's game: the same refusal, for the app's games only.
    const appGame = await gameWith(run, { accounts: [a.id, b.id], app: app.id });
    const refused = await send(run, a, appGame.id);
    expect([refused.status, refused.body.code, refused.body.by]).toEqual([403, 'CHAT_DISABLED', 'app']);
    expect((await list(run, b, appGame.id)).body.by).toBe('app');
    expect((await send(run, a, account.id)).status).toBe(201);
    const changed = await fetch(`${run.url}/api/v1/admin/apps/${app.id}`, {
      method: 'PATCH',
      headers: admin,
      body: JSON.stringify({ settings: { chat: true } }),
    });
    expect(((await changed.json()) as { settings: { chat: boolean } }).settings.chat).toBe(true);
    expect((await send(run, a, appGame.id)).status).toBe(201);
    // A new app's default: on; so for an app stored before chat (no `chat` in its settings).
    expect((await run.app.services.apps.getApp((await newApp(run.app)).id)).settings.chat).toBe(true);
    const older = await newApp(run.app);
    const stored = (await run.storage.apps.getApp(older.id))!;
    const { chat: _chat, ...before } = stored.settings;
    await run.storage.apps.saveApp({ ...stored, settings: before });
    expect((await run.app.services.apps.getApp(older.id)).settings.chat).toBe(true);
    const olderGame = await gameWith(run, { accounts: [a.id, b.id], app: older.id });
    expect((await send(run, a, olderGame.id)).status).toBe(201);
  });

  it('refuses everyone in a game whose mode is off', async () => {
    const game = await gameWith(run, { accounts: [a.id, b.id], chat: 'off' });
    for (const answer of [await send(run, a, game.id), await list(run, b, game.id)]) {
      expect([answer.status, answer.body.code, answer.body.by]).toEqual([403, 'CHAT_DISABLED', 'game']);
    }
    expect((await failure(run.url, b.token, SEND, { id: game.id, text: 'x' })).by).toBe('game');
  });

  it('lets spectators with an account talk in mode everyone, and anyone read', async () => {
    const game = await gameWith(run, { accounts: [a.id, b.id], chat: 'everyone' });
    const stream = await readStream(`${run.url}/api/v1/games/${game.id}/stream`, {
      accept: 'application/x-ndjson',
    });
    try {
      await stream.next();
      const said = await send(run, watcher, game.id, 'nice opening');
      expect(said.body).toMatchObject({ seat: null, account: watcher.id, name: watcher.username });
      // An anonymous reader of the stream and of the list gets it; an anonymous sender is refused.
      expect(await stream.next()).toEqual({ type: 'chat', message: said.body });
      expect((await list(run, null, game.id)).body.items).toEqual([said.body]);
      expect((await send(run, null, game.id)).body.code).toBe('UNAUTHENTICATED');
      const viaGraphql = await ok(run.url, watcher.token, SEND, { id: game.id, text: 'me again' });
      expect(viaGraphql.sendChat.text).toBe('me again');
      // Both seats hear of a spectator's message; a spectator may not mute.
      for (const seat of [a, b]) {
        const events = (await run.app.services.feed.read({ token: seat.token }, 0, 500)).events;
        const texts = events
          .filter((e) => e.type === 'chat.message' && (e.data.game as { id: string }).id === game.id)
          .map((e) => (e.data.message as { text: string }).text);
        expect(texts).toEqual(['nice opening', 'me again']);
      }
      expect((await rest(run, watcher, 'PUT', `/games/${game.id}/chat/mute`)).body.code).toBe('FORBIDDEN');
      // A seat that mutes no longer gets the spectators' messages either.
      await rest(run, a, 'PUT', `/games/${game.id}/chat/mute`);
      await send(run, watcher, game.id, 'third');
      expect((await list(run, a, game.id)).body).toEqual({ items: [], muted: true });
      expect((await list(run, b, game.id)).body.items).toHaveLength(3);
    } finally {
      stream.close();
    }
  });

  it('hides a private game’s chat from whoever may not read the game, in any mode', async () => {
    const game = await gameWith(run, { accounts: [a.id, b.id], chat: 'everyone', visibility: 'private' });
    expect((await send(run, a, game.id, 'between us')).status).toBe(201);
    for (const who of [watcher, null]) {
      for (const answer of [await list(run, who, game.id), await send(run, who, game.id)]) {
        expect([answer.status, answer.body.code]).toEqual([404, 'GAME_NOT_FOUND']);
      }
    }
    expect((await failure(run.url, watcher.token, SEND, { id: game.id, text: 'x' })).code).toBe(
      'GAME_NOT_FOUND',
    );
    expect((await list(run, b, game.id)).body.items.map((m: { text: string }) => m.text)).toEqual([
      'between us',
    ]);
  });

  it('forgets an erased account’s messages in its games', async () => {
    const app = await newApp(run.app);
    const [one, two] = [await appAccount(run.storage, app, 'one'), await appAccount(run.storage, app, 'two')];
    const as = (id: string) => ({ auth: app.as(id) }) as unknown as TestAccount;
    const game = await gameWith(run, { accounts: [one.id, two.id], app: app.id });
    expect((await send(run, as(one.id), game.id, 'mine')).body.name).toBe(one.username);
    const kept = (await send(run, as(two.id), game.id, 'theirs')).body;
    await run.app.services.lifecycle.erase({ operator: true, accountId: one.id });
    expect((await list(run, as(two.id), game.id)).body.items).toEqual([kept]);
  });

  it('sends chat.message to the other seat’s webhooks through its feed', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await rest(run, b, 'POST', '/account/webhooks', {
        url: receiver.url('/chat'),
        events: ['chat.message'],
      });
      expect(hook.status).toBe(201);
      const game = await challengeGame(run, a, b);
      const sent = (await send(run, a, game.id, 'hooked')).body;
      await run.app.deliverWebhooks();
      const delivered = receiver.accepted.map((r) => r.payload).filter((p) => p.type === 'chat.message');
      expect(delivered.map((p) => [p.account, p.data.message])).toEqual([[b.id, sent]]);
    } finally {
      await receiver.stop();
    }
  });
});

it('keeps a game’s chat for the retention after its last message (memory, on its clock)', async () => {
  let now = Date.parse('2026-05-01T00:00:00.000Z');
  const run = await harness.start('memory', { now: () => new Date(now) });
  const [a, b] = [await signUp(run.app, 'ra', 'human'), await signUp(run.app, 'rb')];
  const game = await challengeGame(run, a, b);
  const texts = async () =>
    (await rest(run, b, 'GET', `/games/${game.id}/chat`)).body.items.map((m: any) => m.text);
  await rest(run, a, 'POST', `/games/${game.id}/chat`, { text: 'first' });
  now += CHAT_RETENTION_MS - 60_000;
  expect(await texts()).toEqual(['first']);
  await rest(run, a, 'POST', `/games/${game.id}/chat`, { text: 'second' });
  now += CHAT_RETENTION_MS - 60_000;
  expect(await texts()).toEqual(['first', 'second']);
  now += 60_001;
  expect(await texts()).toEqual([]);
});
