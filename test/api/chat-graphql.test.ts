// Per-game chat over GraphQL on both stores: sendChat, the gameChat query and subscription (missed
// messages first with `after`, then live; a muting seat's view), muteChat/unmuteChat, and refusals
// with their codes (CHAT_DISABLED with `by`, INVALID_INPUT, RATE_LIMITED).
import type { Client } from 'graphql-ws';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running, type StoreKind, wsClient } from '../support/app';
import { challengeGame } from '../support/clocks';
import { failure, ok } from '../support/graphql';
import { uniquePrefix } from '../support/redis';
import { readStream } from '../support/stream-reader';
import { CHAT_RATE_MESSAGES, CHAT_TEXT_MAX } from '../../src/service/game/chat';

const harness = appHarness();
afterAll(() => harness.stopAll());

const FIELDS = 'id game seat account name text at';
const SEND = `mutation ($id: ID!, $text: String!, $seatToken: String) {
  sendChat(gameId: $id, text: $text, seatToken: $seatToken) { ${FIELDS} } }`;
const LIST = `query ($id: ID!, $after: String, $limit: Int, $seatToken: String) {
  gameChat(id: $id, after: $after, limit: $limit, seatToken: $seatToken) { items { ${FIELDS} } muted } }`;
const MUTE = `mutation ($id: ID!) { muteChat(gameId: $id) { game seat muted } }`;
const UNMUTE = `mutation ($id: ID!) { unmuteChat(gameId: $id) { game seat muted } }`;

/** The gameChat subscription as `token`'s holder: its messages one at a time (errors throw). */
function follow(run: Running, token: string | undefined, id: string, after?: string) {
  const client: Client = wsClient(run.url, token ? { authorization: `Bearer ${token}` } : undefined);
  const iterator = client.iterate<{ gameChat: Record<string, unknown> }>({
    query: `subscription ($id: ID!, $after: String) { gameChat(id: $id, after: $after) { ${FIELDS} } }`,
    variables: after === undefined ? { id } : { id, after },
  });
  return {
    async next(): Promise<Record<string, unknown>> {
      const result = await iterator.next();
      if (result.done) throw new Error('completed');
      if (result.value.errors) throw Object.assign(new Error('errors'), { errors: result.value.errors });
      return result.value.data!.gameChat;
    },
    async close() {
      await iterator.return?.();
      await client.dispose();
    },
  };
}

describe.each<StoreKind>(['memory', 'redis'])('chat over GraphQL on %s', (store) => {
  let run: Running;
  let a: TestAccount;
  let b: TestAccount;
  let watcher: TestAccount;
  beforeAll(async () => {
    run = await harness.start(store);
    [a, b, watcher] = [
      await signUp(run.app, 'ga', 'human'),
      await signUp(run.app, 'gb'),
      await signUp(run.app, 'gw'),
    ];
  });

  it('sends, lists, follows live and mutes', async () => {
    const game = await challengeGame(run, a, b);
    const first = (await ok(run.url, a.token, SEND, { id: game.id, text: ' hello\u2067 ' })).sendChat;
    expect(first).toEqual({
      id: '1',
      game: game.id,
      seat: 0,
      account: a.id,
      name: a.username,
      text: 'hello',
      at: expect.any(String),
    });
    // The REST list and the GraphQL one agree.
    const rest = await fetch(`${run.url}/api/v1/games/${game.id}/chat`, { headers: b.auth });
    expect(((await rest.json()) as { items: unknown[] }).items).toEqual([first]);
    expect((await ok(run.url, b.token, LIST, { id: game.id })).gameChat).toEqual({
      items: [first],
      muted: false,
    });

    const live = follow(run, b.token, game.id, '0');
    try {
      // The missed message first (the subscription is running once it arrives), then live ones.
      expect(await live.next()).toEqual(first);
      const second = (await ok(run.url, a.token, SEND, { id: game.id, text: 'live' })).sendChat;
      expect(await live.next()).toEqual(second);
      expect((await ok(run.url, b.token, MUTE, { id: game.id })).muteChat).toEqual({
        game: game.id,
        seat: 1,
        muted: true,
      });
      await ok(run.url, a.token, SEND, { id: game.id, text: 'unheard' });
      const own = (await ok(run.url, b.token, SEND, { id: game.id, text: 'mine' })).sendChat;
      expect(await live.next()).toEqual(own);
      expect((await ok(run.url, b.token, LIST, { id: game.id, after: '1' })).gameChat).toEqual({
        items: [own],
        muted: true,
      });
      expect((await ok(run.url, b.token, UNMUTE, { id: game.id })).unmuteChat.muted).toBe(false);
      const back = (await ok(run.url, a.token, SEND, { id: game.id, text: 'back' })).sendChat;
      expect(await live.next()).toEqual(back);
      expect((await ok(run.url, a.token, LIST, { id: game.id, limit: 2 })).gameChat.items).toEqual([
        own,
        back,
      ]);
    } finally {
      await live.close();
    }
  });

  it('refuses with the codes of REST, the subscription too', async () => {
    const game = await challengeGame(run, a, b);
    const empty = await failure(run.url, a.token, SEND, { id: game.id, text: '\u200B' });
    expect(empty.code).toBe('INVALID_INPUT');
    expect(
      (await failure(run.url, a.token, SEND, { id: game.id, text: 'y'.repeat(CHAT_TEXT_MAX + 1) })).code,
    ).toBe('INVALID_INPUT');
    const spectator = await failure(run.url, watcher.token, LIST, { id: game.id });
    expect([spectator.code, spectator.by]).toEqual(['CHAT_DISABLED', 'spectators']);
    expect((await failure(run.url, watcher.token, SEND, { id: game.id, text: 'hi' })).by).toBe('spectators');
    expect((await failure(run.url, watcher.token, MUTE, { id: game.id })).code).toBe('FORBIDDEN');
    const refused = follow(run, watcher.token, game.id);
    try {
      const error = await refused
        .next()
        .catch((e: { errors: Array<{ extensions: Record<string, unknown> }> }) => e);
      expect(
        (error as { errors: Array<{ extensions: Record<string, unknown> }> }).errors[0]?.extensions,
      ).toMatchObject({
        code: 'CHAT_DISABLED',
        by: 'spectators',
      });
    } finally {
      await refused.close();
    }
    for (let i = 0; i < CHAT_RATE_MESSAGES; i++)
      await ok(run.url, b.token, SEND, { id: game.id, text: `n${i}` });
    expect((await failure(run.url, b.token, SEND, { id: game.id, text: 'flood' })).code).toBe('RATE_LIMITED');
    expect((await ok(run.url, a.token, LIST, { id: game.id })).gameChat.items).toHaveLength(
      CHAT_RATE_MESSAGES,
    );
  });

  it('lets a seat-token seat chat with its token as an argument', async () => {
    const created = (
      await ok(
        run.url,
        undefined,
        'mutation { createGame(input: { kind: "kalah" }) { game { id } seatTokens { seat name token } } }',
      )
    ).createGame;
    const [south, north] = created.seatTokens as Array<{ name: string; token: string }>;
    const sent = (
      await ok(run.url, undefined, SEND, { id: created.game.id, text: 'hi', seatToken: south!.token })
    ).sendChat;
    expect(sent).toMatchObject({ seat: 0, account: null, name: south!.name });
    const page = await ok(run.url, undefined, LIST, { id: created.game.id, seatToken: north!.token });
    expect(page.gameChat.items).toEqual([sent]);
  });
});

it('delivers a message sent on one node to the subscribers and streams of another (one Redis)', async () => {
  const prefix = uniquePrefix('chat-nodes');
  const one = await harness.start('redis', prefix);
  const two = await harness.start('redis', prefix);
  const [a, b] = [await signUp(one.app, 'na', 'human'), await signUp(one.app, 'nb')];
  const game = await challengeGame(one, a, b);
  const first = (await ok(one.url, a.token, SEND, { id: game.id, text: 'first' })).sendChat;
  const live = follow(two, b.token, game.id, '0');
  const stream = await readStream(`${two.url}/api/v1/games/${game.id}/stream`, {
    ...b.auth,
    accept: 'application/x-ndjson',
  });
  try {
    expect(await live.next()).toEqual(first);
    await stream.next();
    const second = (await ok(one.url, a.token, SEND, { id: game.id, text: 'across' })).sendChat;
    expect(await live.next()).toEqual(second);
    expect(await stream.next()).toEqual({ type: 'chat', message: second });
  } finally {
    stream.close();
    await live.close();
  }
});
