// ACCEPTANCE: two bot accounts play a whole game of every kind using only the `events`
// subscription (graphql-ws, token in connection_init) and GraphQL mutations; a bot resumes its feed
// after being away.
import { GAME_KINDS } from '../../src/engines/types';
import type { GameView } from '../../src/service/game/view';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, type Running, type StoreKind } from '../support/app';
import {
  failure,
  ok,
  subscribeEvents,
  subscriptionFailure,
  type FeedEvent,
  type FeedSubscription,
} from '../support/graphql';
import { uniquePrefix } from '../support/redis';
import { referee } from '../support/referee';

const harness = appHarness();
afterAll(() => harness.stopAll());

const STORES: StoreKind[] = (process.env.GQL_STORES ?? 'redis,memory').split(',') as StoreKind[];

const CHALLENGE = `mutation ($input: CreateChallengeInput!) { createChallenge(input: $input) { id status } }`;
const ACCEPT = 'mutation ($id: ID!) { acceptChallenge(id: $id) { id status gameId } }';
const MOVE = `mutation ($id: ID!, $move: String!, $v: Int) {
  submitMove(id: $id, move: $move, expectedVersion: $v) { id version } }`;

/**
 * A bot: it follows its account feed and nothing else. It accepts every challenge it receives and
 * moves whenever an event shows one of its games with its own seat to move. Events of one game are
 * handled in feed order; different games go on in parallel.
 */
class Bot {
  /** Every event received, in order. */
  readonly events: FeedEvent[] = [];
  /** The game of each game.finished event, by game id. */
  readonly finished = new Map<string, GameView>();
  /** Per game, the versions of the games carried by its game.* events, in order. */
  readonly versions = new Map<string, number[]>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly picks = new Map<string, (moves: readonly string[]) => string>();
  private feed: FeedSubscription | undefined;

  constructor(
    private readonly url: string,
    readonly account: TestAccount,
    private readonly seed: number,
  ) {}

  /** Follows the feed until `games` games have finished; resolves then, rejects on any failure. */
  async play(games: number, after = 0): Promise<void> {
    const feed = subscribeEvents(this.url, this.account.token, after);
    this.feed = feed;
    let fail!: (error: unknown) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    try {
      while (this.finished.size < games) {
        const event = await Promise.race([feed.next(), failed]);
        this.events.push(event);
        const game = event.data.game as GameView | undefined;
        if (game) this.versions.set(game.id, [...(this.versions.get(game.id) ?? []), game.version]);
        if (game && event.type === 'game.finished') this.finished.set(game.id, game);
        const key = game?.id ?? `challenge:${event.data.challenge?.id}`;
        const chain = (this.chains.get(key) ?? Promise.resolve()).then(() => this.handle(event));
        this.chains.set(key, chain.catch(fail));
      }
      await Promise.race([Promise.all(this.chains.values()), failed]);
    } finally {
      await feed.close();
    }
  }

  private async handle(event: FeedEvent): Promise<void> {
    const me = this.account;
    if (event.type === 'challenge.received') {
      await ok(this.url, me.token, ACCEPT, { id: event.data.challenge.id });
      return;
    }
    if (event.type !== 'game.started' && event.type !== 'game.moved') return;
    const game = event.data.game as GameView;
    if (game.status !== 'ongoing' || game.toMove === null) return;
    if (game.seats[game.toMove]?.account !== me.id) return;
    const pick = this.picks.get(game.id) ?? chooser(this.seed + game.kind.length * 101);
    this.picks.set(game.id, pick);
    await ok(this.url, me.token, MOVE, { id: game.id, move: pick(game.legalMoves), v: game.version });
  }

  /** Stops following (for tests that end the bot early). */
  async stop(): Promise<void> {
    await this.feed?.close();
  }
}

describe.each(STORES)('bots over GraphQL on %s', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  it('two bots play a whole game of every kind with only the events subscription and mutations', async () => {
    const started = Date.now();
    const a = new Bot(run.url, await signUp(run.app, 'bot-a'), 1000);
    const b = new Bot(run.url, await signUp(run.app, 'bot-b'), 2000);
    // New accounts: `after: 0` follows the whole feed, so nothing is missed however the two
    // subscriptions and the first challenge interleave.
    const playing = [a.play(GAME_KINDS.length), b.play(GAME_KINDS.length)];
    for (const kind of GAME_KINDS) {
      const { createChallenge } = await ok(run.url, a.account.token, CHALLENGE, {
        input: { to: b.account.username, kind, starts: 'challenger' },
      });
      expect(createChallenge.status).toBe('open');
    }
    await Promise.all(playing);

    expect([...a.finished.keys()].sort()).toEqual([...b.finished.keys()].sort());
    const kinds: string[] = [];
    let plies = 0;
    for (const [id, game] of a.finished) {
      const stored = await run.app.services.games.getGame(id);
      // Both bots saw the game as it is stored, finished (its head: events carry no moves).
      const { moves: _moves, ...head } = stored;
      expect(game).toEqual(JSON.parse(JSON.stringify(head)));
      expect(b.finished.get(id)).toEqual(game);
      expect(stored.status).toBe('finished');
      expect(stored.seats.map((s) => s.account)).toEqual([a.account.id, b.account.id]);
      // The moves replay on the engine to the same position and result.
      const moves = stored.moves.map((m) => m.notation);
      const expected = referee(stored.kind, stored.options, moves);
      expect(stored.position).toBe(expected.position);
      expect(stored.result).toMatchObject({
        winner: expected.outcome?.winner ?? null,
        reason: expected.outcome?.reason,
      });
      // Each bot saw every version of the game once, in order: started, each move, finished.
      const versions = [...Array.from({ length: moves.length + 1 }, (_, v) => v), moves.length];
      expect(a.versions.get(id)).toEqual(versions);
      expect(b.versions.get(id)).toEqual(versions);
      kinds.push(stored.kind);
      plies += moves.length;
    }
    expect(kinds.sort()).toEqual([...GAME_KINDS].sort());

    // Each feed is numbered 1..N without gaps or repeats, and holds exactly the expected events.
    for (const bot of [a, b]) {
      expect(bot.events.map((e) => e.seq)).toEqual(
        Array.from({ length: bot.events.length }, (_, i) => i + 1),
      );
    }
    const n = GAME_KINDS.length;
    expect(a.events.length).toBe(3 * n + plies); // accepted, started, finished + every move
    expect(b.events.length).toBe(4 * n + plies); // … + received
    console.log(`bots (${store}): ${n} games, ${plies} plies in ${Date.now() - started} ms`);
  });
});

describe.each(STORES)('resuming the events subscription on %s', (store) => {
  const GAME = 'query ($id: ID!) { game(id: $id) { id version toMove legalMoves } }';

  /** Two bots with a started oware game, `b` following its feed up to the start. */
  async function setUp(run: Running) {
    const a = await signUp(run.app, 'res-a');
    const b = await signUp(run.app, 'res-b');
    const feed = subscribeEvents(run.url, b.token, 0);
    await ok(run.url, a.token, CHALLENGE, { input: { to: b.username, kind: 'oware', starts: 'challenger' } });
    const received = await feed.next();
    expect(received).toMatchObject({ seq: 1, type: 'challenge.received' });
    await ok(run.url, b.token, ACCEPT, { id: received.data.challenge.id });
    expect((await feed.next()).type).toBe('challenge.accepted');
    const start = await feed.next();
    expect(start).toMatchObject({ seq: 3, type: 'game.started' });
    const pick = chooser(77);
    /** Plays one move for whoever is to move; returns the move. */
    const play = async () => {
      const { game } = await ok(run.url, undefined, GAME, { id: start.data.game.id });
      const token = game.toMove === 0 ? a.token : b.token;
      const move = pick(game.legalMoves);
      await ok(run.url, token, MOVE, { id: game.id, move, v: game.version });
      return move;
    };
    return { a, b, feed, play, gameId: start.data.game.id as string };
  }

  it('a bot away for three moves gets each missed event exactly once, in order, then live ones', async () => {
    const prefix = uniquePrefix('resume');
    const run = await harness.start(store, prefix);
    // On Redis the bot comes back through another server node.
    const other = store === 'redis' ? await harness.start(store, prefix) : run;
    const { b, feed, play, gameId } = await setUp(run);
    const before = [await play(), await play()];
    expect((await feed.next()).data.move).toBe(before[0]);
    const lastSeen = await feed.next();
    expect(lastSeen).toMatchObject({ seq: 5, type: 'game.moved', data: { move: before[1] } });
    await feed.close();

    const missed = [await play(), await play(), await play()];
    const resumed = subscribeEvents(other.url, b.token, lastSeen.seq);
    const caughtUp = [await resumed.next(), await resumed.next(), await resumed.next()];
    const live = [await play(), await play()];
    const liveEvents = [await resumed.next(), await resumed.next()];
    const after = await play();
    const last = await resumed.next();
    await resumed.close();

    expect(
      [...caughtUp, ...liveEvents, last].map((e) => [e.seq, e.type, e.data.move, e.data.game.version]),
    ).toEqual([...missed, ...live, after].map((move, i) => [6 + i, 'game.moved', move, 3 + i]));
    expect(caughtUp.every((e) => e.data.game.id === gameId)).toBe(true);
  });

  it('without `after` starts from now: the first event is a new one', async () => {
    const run = await harness.start(store);
    const { a, b, feed } = await setUp(run);
    await feed.close();
    const fromNow = subscribeEvents(run.url, b.token);
    const first = fromNow.next();
    // The subscription gives no sign of being live: challenge until an event arrives.
    let sent = 0;
    let done = false;
    void first.finally(() => (done = true));
    while (!done && sent < 50) {
      await ok(run.url, a.token, CHALLENGE, { input: { to: b.username, kind: 'kalah' } });
      sent++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const event = await first;
    const second = fromNow.next();
    await ok(run.url, a.token, CHALLENGE, { input: { to: b.username, kind: 'kalah' } });
    const next = await second;
    await fromNow.close();
    expect(event.type).toBe('challenge.received');
    expect(event.seq).toBeGreaterThan(3);
    expect(event.seq).toBeLessThanOrEqual(3 + sent);
    expect(next.seq).toBe(event.seq + 1);
  });

  it('refuses a subscription without a token, with a token lacking game:read, and beyond the newest event', async () => {
    const run = await harness.start(store);
    const bot = await signUp(run.app, 'refused');
    const anonymous = subscribeEvents(run.url, undefined, 0);
    expect((await subscriptionFailure(anonymous.next())).code).toBe('UNAUTHENTICATED');
    await anonymous.close();

    const forged = subscribeEvents(run.url, 'bhp_forged-token');
    expect((await subscriptionFailure(forged.next())).code).toBe('UNAUTHENTICATED');
    await forged.close();

    const { createToken } = await ok(
      run.url,
      bot.token,
      'mutation { createToken(label: "challenges only", scopes: ["challenge:write"]) { token } }',
    );
    const unscoped = subscribeEvents(run.url, createToken.token);
    const missing = await subscriptionFailure(unscoped.next());
    await unscoped.close();
    expect(missing.code).toBe('MISSING_SCOPE');
    expect(missing.extensions.required).toEqual(['game:read']);

    const beyond = subscribeEvents(run.url, bot.token, 1);
    const invalid = await subscriptionFailure(beyond.next());
    await beyond.close();
    expect(invalid.code).toBe('INVALID_INPUT');
    expect(invalid.extensions.last).toBe(0);
    expect((await failure(run.url, bot.token, '{ events(after: 1) { last } }')).code).toBe('INVALID_INPUT');
  });
});
