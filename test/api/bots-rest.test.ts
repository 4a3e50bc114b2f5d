// ACCEPTANCE: two bot accounts play a whole game of every hosted kind on Redis, using only their
// account event feed and the REST endpoints: bot A challenges bot B, B accepts when its feed says
// `challenge.received`, and each bot moves when a `game.started` / `game.moved` event says it is
// its turn, until `game.finished`. Half the kinds stream Server-Sent Events, half NDJSON.
import request from 'supertest';
import { GAME_KINDS } from '../../src/engines/types';
import * as A from '../../src/transport/rest/accounts.schemas';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, type Running } from '../support/app';
import { openFeed, type FeedConnection, type FeedFormat, type FeedMessage } from '../support/feed-client';
import { referee } from '../support/referee';

const harness = appHarness();
let run: Running;
beforeAll(async () => {
  run = await harness.start('redis');
});
afterAll(() => harness.stopAll());

/** A bot: its account, its open feed, how it picks moves, and what it saw and did. */
interface Bot {
  readonly account: TestAccount;
  readonly feed: FeedConnection;
  readonly pick: (moves: readonly string[]) => string;
  readonly seen: FeedMessage[];
  readonly played: Array<{ ply: number; move: string }>;
}

async function newBot(label: string, format: FeedFormat, seed: number): Promise<Bot> {
  const account = await signUp(run.app, label, 'bot');
  const feed = await openFeed(run.url, account.token, { format });
  expect(feed.last).toBe(0);
  return { account, feed, pick: chooser(seed), seen: [], played: [] };
}

async function post(bot: Bot, path: string, body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${run.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bot.account.auth, ...headers },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Reacts to the bot's feed until `game.finished`; resolves with the game that event carried. */
async function play(bot: Bot): Promise<any> {
  for (;;) {
    const message = await bot.feed.next(15_000);
    bot.seen.push(message);
    const event = message.data;
    switch (event.type) {
      case 'challenge.received':
        if (event.data.challenge.destination === bot.account.id) {
          await post(bot, `/challenges/${event.data.challenge.id}/accept`, {});
        }
        break;
      case 'game.started':
      case 'game.moved': {
        const game = event.data.game;
        if (game.status === 'ongoing' && game.seats[game.toMove].account === bot.account.id) {
          const move = bot.pick(game.legalMoves);
          await post(bot, `/games/${game.id}/moves`, { move }, { 'if-match': `"${game.version}"` });
          bot.played.push({ ply: game.ply + 1, move });
        }
        break;
      }
      case 'game.finished':
        return event.data.game;
    }
  }
}

/** Checks a bot's stream: the schema of each event, SSE ids, and seqs 1..N without gaps or repeats. */
async function checkFeed(bot: Bot, format: FeedFormat): Promise<void> {
  for (const message of bot.seen) {
    expect(A.FeedEvent.parse(message.data)).toEqual(message.data);
    expect(message.type).toBe(message.data.type);
    expect(message.id).toBe(format === 'sse' ? `${message.data.epoch}:${message.data.seq}` : undefined);
  }
  const seqs = bot.seen.map((m) => m.data.seq);
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  // The stored feed holds exactly what was streamed.
  const page = await request(run.url)
    .get('/api/v1/account/events?after=0&limit=500')
    .set(bot.account.auth)
    .set('Accept', 'application/json')
    .expect(200);
  expect(page.body.last).toBe(seqs.length);
  expect(page.body.events).toEqual(bot.seen.map((m) => m.data));
}

it('hosts exactly the kinds played here', () => {
  expect([...run.app.service.kinds()].sort()).toEqual([...GAME_KINDS].sort());
});

describe.each(GAME_KINDS.map((kind, i) => [kind, i % 2 === 0 ? 'sse' : 'ndjson'] as const))(
  '%s over %s',
  (kind, format) => {
    it('two bots play a whole game from their feeds to the result the rules give', async () => {
      const a = await newBot('alpha', format, kind.length * 7 + 1);
      const b = await newBot('beta', format, kind.length * 13 + 2);
      await request(run.url)
        .put('/api/v1/account/bot')
        .set(b.account.auth)
        .send({ kinds: [kind] })
        .expect(200);
      const playing = Promise.all([play(a), play(b)]);
      const challenge = await request(run.url)
        .post('/api/v1/challenges')
        .set(a.account.auth)
        .send({ to: b.account.username, kind, starts: 'challenger' })
        .expect(201);
      expect(challenge.body.status).toBe('open');
      const [seenByA, seenByB] = await playing;
      a.feed.close();
      b.feed.close();

      const game = (await request(run.url).get(`/api/v1/games/${seenByA.id}`).expect(200)).body;
      expect(game.status).toBe('finished');
      // The events carry the game's head: the game without its moves.
      const { moves: _moves, ...head } = game;
      expect(seenByA).toEqual(head);
      expect(seenByB).toEqual(head);
      expect(game.seats.map((s: { account: string }) => s.account)).toEqual([a.account.id, b.account.id]);

      // The moves the bots played, in ply order, are the game's; the engine replays them to its result.
      const played = [...a.played, ...b.played].sort((x, y) => x.ply - y.ply);
      expect(played.map((p) => p.ply)).toEqual(Array.from({ length: game.ply }, (_, i) => i + 1));
      const moves = played.map((p) => p.move);
      expect(game.moves.map((m: { notation: string }) => m.notation)).toEqual(moves);
      const expected = referee(kind, game.options, moves);
      expect(game.position).toBe(expected.position);
      expect(game.result.reason).toBe(expected.outcome?.reason);
      expect(game.result.winner).toBe(expected.outcome?.winner ?? null);
      expect(game.result.score).toEqual(expected.outcome?.score ?? null);

      // Each bot heard the challenge's steps, the start, every move once, and the end, numbered 1..N.
      const moved = Array<string>(game.ply).fill('game.moved');
      expect(a.seen.map((m) => m.type)).toEqual([
        'challenge.accepted',
        'game.started',
        ...moved,
        'game.finished',
      ]);
      expect(b.seen.map((m) => m.type)).toEqual([
        'challenge.received',
        'challenge.accepted',
        'game.started',
        ...moved,
        'game.finished',
      ]);
      for (const bot of [a, b]) {
        const plies = bot.seen.filter((m) => m.type === 'game.moved').map((m) => m.data.data.game.ply);
        expect(plies).toEqual(Array.from({ length: game.ply }, (_, i) => i + 1));
        await checkFeed(bot, format);
      }
    });
  },
);
