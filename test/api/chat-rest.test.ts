// Per-game chat over REST on both stores: seats send and read, the text is cleaned and bounded, the
// other seat hears of each message in its feed (not the author), the game stream carries it (SSE
// and NDJSON) to the seats and not to spectators of a seats-only chat, a seat mutes the others
// everywhere (list, stream, feed) and unmutes, the rate per sender, chat after the game ended,
// seat-token seats, and the retention of the newest CHAT_KEEP_MESSAGES.
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, rest, type Running, type StoreKind } from '../support/app';
import { challengeGame, feedOf } from '../support/clocks';
import { readStream, type StreamReader } from '../support/stream-reader';
import {
  CHAT_KEEP_MESSAGES,
  CHAT_RATE_MESSAGES,
  CHAT_RETENTION_MS,
  CHAT_TEXT_MAX,
} from '../../src/service/game/chat';
import { Keys } from '../../src/store/redis/keys';
import * as C from '../../src/transport/rest/chat.schemas';

const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each<StoreKind>(['memory', 'redis'])('chat over REST on %s', (store) => {
  let run: Running;
  let a: TestAccount;
  let b: TestAccount;
  let watcher: TestAccount;
  beforeAll(async () => {
    run = await harness.start(store);
    [a, b, watcher] = [
      await signUp(run.app, 'ca', 'human'),
      await signUp(run.app, 'cb'),
      await signUp(run.app, 'cw'),
    ];
  });
  const send = (who: TestAccount | null, id: string, text: unknown) =>
    rest(run, who, 'POST', `/games/${id}/chat`, { text });
  const list = (who: TestAccount | null, id: string, query = '') =>
    rest(run, who, 'GET', `/games/${id}/chat${query}`);
  const chatEvents = async (who: TestAccount, id: string) =>
    (await feedOf(run, who)).filter((e) => e.type === 'chat.message' && e.data.game.id === id);

  it('lets the seats write and read, cleans the text, and tells the other seat in its feed', async () => {
    const game = await challengeGame(run, a, b);
    const sent = await send(a, game.id, '  good\u202E luck,\nfriend\u200B!  ');
    expect(sent.status).toBe(201);
    expect(C.ChatMessage.parse(sent.body)).toEqual(sent.body);
    expect(sent.body).toEqual({
      id: '1',
      game: game.id,
      seat: 0,
      account: a.id,
      name: a.username,
      text: 'good luck, friend!',
      at: expect.any(String),
    });
    const reply = await send(b, game.id, 'thanks');
    expect([reply.status, reply.body.id, reply.body.seat]).toEqual([201, '2', 1]);
    for (const who of [a, b]) {
      const page = await list(who, game.id);
      expect(page.status).toBe(200);
      expect(C.ChatPage.parse(page.body)).toEqual(page.body);
      expect(page.body).toEqual({ items: [sent.body, reply.body], muted: false });
    }
    expect((await list(a, game.id, '?after=1')).body.items).toEqual([reply.body]);
    expect((await list(a, game.id, '?limit=1')).body.items).toEqual([reply.body]);
    // The feed (checked against the FeedEvent schema): each message to the other seat only.
    expect((await chatEvents(b, game.id)).map((e) => e.data.message)).toEqual([sent.body]);
    expect((await chatEvents(a, game.id)).map((e) => e.data.message)).toEqual([reply.body]);
    expect((await chatEvents(b, game.id))[0].data.game.seats[0].account).toBe(a.id);
  });

  it('refuses empty, too long and malformed input, and spectators of a seats-only chat, changing nothing', async () => {
    const game = await challengeGame(run, a, b);
    for (const text of ['', '   ', '\u202E\u2066\u0007', 'x'.repeat(CHAT_TEXT_MAX + 1), 42]) {
      const refused = await send(a, game.id, text);
      expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_INPUT']);
    }
    // The bound counts characters (code points), not UTF-16 units.
    const longest = await send(a, game.id, '♞'.repeat(CHAT_TEXT_MAX - 1) + '😀');
    expect(longest.status).toBe(201);
    expect([...longest.body.text]).toHaveLength(CHAT_TEXT_MAX);
    for (const query of ['?limit=0', `?limit=${CHAT_KEEP_MESSAGES + 1}`, '?after=x', '?other=1']) {
      expect((await list(a, game.id, query)).body.code).toBe('INVALID_INPUT');
    }
    for (const who of [watcher, null]) {
      const read = await list(who, game.id);
      expect([read.status, read.body.code, read.body.by]).toEqual([403, 'CHAT_DISABLED', 'spectators']);
    }
    const spoken = await send(watcher, game.id, 'hello');
    expect([spoken.status, spoken.body.code, spoken.body.by]).toEqual([403, 'CHAT_DISABLED', 'spectators']);
    expect((await send(null, game.id, 'hello')).body.code).toBe('UNAUTHENTICATED');
    expect((await send(a, 'nosuchgame00', 'hello')).body.code).toBe('GAME_NOT_FOUND');
    expect((await list(a, game.id)).body.items.map((m: { id: string }) => m.id)).toEqual(['1']);
    expect(await chatEvents(b, game.id)).toHaveLength(1);
  });

  it('carries messages in the game stream (SSE and NDJSON) to the seats, not to spectators', async () => {
    const game = await challengeGame(run, a, b);
    const url = `${run.url}/api/v1/games/${game.id}/stream`;
    const streams: StreamReader[] = [];
    try {
      const sse = await readStream(url, { ...b.auth, accept: 'text/event-stream' });
      const ndjson = await readStream(url, { ...a.auth, accept: 'application/x-ndjson' });
      const spectator = await readStream(url, { ...watcher.auth, accept: 'application/x-ndjson' });
      streams.push(sse, ndjson, spectator);
      for (const s of streams) await s.next(); // the game
      const sent = (await send(a, game.id, 'streamed')).body;
      expect(await sse.next()).toEqual({ event: 'chat', data: sent });
      expect(await ndjson.next()).toEqual({ type: 'chat', message: sent });
      // The spectator's stream carries the game and nothing of the chat.
      const move = await rest(run, a, 'POST', `/games/${game.id}/moves`, { move: game.legalMoves[0] });
      expect(move.status).toBe(200);
      expect((await spectator.next()).type).toBe('update');
      expect((await ndjson.next()).type).toBe('update');
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('mutes the others for one seat everywhere, and unmutes', async () => {
    const game = await challengeGame(run, a, b);
    const url = `${run.url}/api/v1/games/${game.id}/stream`;
    const stream = await readStream(url, { ...b.auth, accept: 'application/x-ndjson' });
    try {
      await stream.next();
      const muted = await rest(run, b, 'PUT', `/games/${game.id}/chat/mute`);
      expect(muted).toEqual({ status: 200, body: { game: game.id, seat: 1, muted: true } });
      expect((await rest(run, b, 'PUT', `/games/${game.id}/chat/mute`)).body.muted).toBe(true);
      const hidden = (await send(a, game.id, 'can you hear me?')).body;
      const own = (await send(b, game.id, 'talking to myself')).body;
      // The stream skips the muted message and carries the seat's own.
      expect(await stream.next()).toEqual({ type: 'chat', message: own });
      expect((await list(b, game.id)).body).toEqual({ items: [own], muted: true });
      expect((await list(a, game.id)).body).toEqual({ items: [hidden, own], muted: false });
      expect(await chatEvents(b, game.id)).toEqual([]);
      expect((await chatEvents(a, game.id)).map((e) => e.data.message)).toEqual([own]);
      // Only a seat mutes.
      expect((await rest(run, watcher, 'PUT', `/games/${game.id}/chat/mute`)).body.code).toBe('FORBIDDEN');
      expect((await rest(run, null, 'PUT', `/games/${game.id}/chat/mute`)).body.code).toBe('UNAUTHENTICATED');

      const unmuted = await rest(run, b, 'DELETE', `/games/${game.id}/chat/mute`);
      expect(unmuted).toEqual({ status: 200, body: { game: game.id, seat: 1, muted: false } });
      expect((await list(b, game.id)).body).toEqual({ items: [hidden, own], muted: false });
      const heard = (await send(a, game.id, 'now?')).body;
      expect(await stream.next()).toEqual({ type: 'chat', message: heard });
      expect((await chatEvents(b, game.id)).map((e) => e.data.message)).toEqual([heard]);
    } finally {
      stream.close();
    }
  });

  it(`allows ${CHAT_RATE_MESSAGES} messages per sender and game per window, then 429 with Retry-After`, async () => {
    const game = await challengeGame(run, a, b);
    const other = await challengeGame(run, a, b);
    for (let i = 0; i < CHAT_RATE_MESSAGES; i++) expect((await send(a, game.id, `m${i}`)).status).toBe(201);
    const res = await fetch(`${run.url}/api/v1/games/${game.id}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...a.auth },
      body: JSON.stringify({ text: 'one too many' }),
    });
    const body = (await res.json()) as { code: string; retryAfterSeconds: number };
    expect([res.status, body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Per sender and per game: the other seat and the other game are not held back.
    expect((await send(b, game.id, 'my turn to talk')).status).toBe(201);
    expect((await send(a, other.id, 'elsewhere')).status).toBe(201);
    expect((await list(a, game.id)).body.items).toHaveLength(CHAT_RATE_MESSAGES + 1);
  });

  it('goes on after the game ended, and serves seat-token seats by their seat names', async () => {
    const game = await challengeGame(run, a, b);
    expect((await rest(run, b, 'POST', `/games/${game.id}/resign`)).status).toBe(200);
    expect((await send(a, game.id, 'good game')).status).toBe(201);

    const created = await rest(run, null, 'POST', '/games', { kind: 'kalah' });
    const [south, north] = created.body.seatTokens as Array<{ name: string; token: string }>;
    const bySeat = (token: string) => ({
      username: '',
      id: '',
      token,
      auth: { authorization: `Bearer ${token}` },
    });
    const id = created.body.game.id as string;
    const sent = await send(bySeat(south!.token), id, 'hi north');
    expect(sent.body).toMatchObject({ seat: 0, account: null, name: south!.name, text: 'hi north' });
    expect((await list(bySeat(north!.token), id)).body.items).toEqual([sent.body]);
    expect((await rest(run, bySeat(north!.token), 'PUT', `/games/${id}/chat/mute`)).body.seat).toBe(1);
    expect((await list(bySeat(north!.token), id)).body).toEqual({ items: [], muted: true });
    // An account with no seat in it is a spectator: refused in a seats-only chat.
    expect((await list(a, id)).body.by).toBe('spectators');
  });

  it(`keeps the newest ${CHAT_KEEP_MESSAGES} messages of a game, for the retention after the last one`, async () => {
    const game = await challengeGame(run, a, b);
    // The store holds what came before (past the rate), then one more through the API.
    for (let i = 1; i <= CHAT_KEEP_MESSAGES; i++) {
      await run.storage.chat.append(
        {
          game: game.id,
          seat: 1,
          account: b.id,
          name: b.username,
          text: `old ${i}`,
          at: new Date().toISOString(),
        },
        { keep: CHAT_KEEP_MESSAGES, ttlMs: 60_000 },
      );
    }
    await send(a, game.id, 'newest');
    const page = (await list(a, game.id, `?limit=${CHAT_KEEP_MESSAGES}`)).body.items;
    expect(page).toHaveLength(CHAT_KEEP_MESSAGES);
    expect([page[0].id, page[0].text]).toEqual(['2', 'old 2']);
    expect(page[CHAT_KEEP_MESSAGES - 1]).toMatchObject({
      id: String(CHAT_KEEP_MESSAGES + 1),
      text: 'newest',
    });
    if (store === 'redis') {
      // The message through the API gave the chat the whole retention again.
      const redis = (run.storage.games as unknown as { redis: { pttl(key: string): Promise<number> } }).redis;
      const prefix = (run.storage.games as unknown as { keys: { prefix: string } }).keys.prefix;
      const ttl = await redis.pttl(new Keys(prefix).chat(game.id));
      expect(ttl).toBeGreaterThan(CHAT_RETENTION_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(CHAT_RETENTION_MS);
    }
  });
});
