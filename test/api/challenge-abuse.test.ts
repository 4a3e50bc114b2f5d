// Issue #28 item 10 on both stores: open challenges are capped per sender and per sender→target
// pair (409 TOO_MANY_CHALLENGES, nothing stored), GET /challenges and GraphQL myChallenges come a
// page at a time, and an account's feed keeps at most FEED_MAX_EVENTS events (the oldest trimmed,
// answered EVENTS_EXPIRED like events trimmed by age).
import { createMemoryStorage } from '../../src/store/memory';
import { createRedisStorage } from '../../src/store/redis';
import type { Storage } from '../../src/store/store';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, gql, type Running, type StoreKind, rest } from '../support/app';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';

const PER_ACCOUNT = 6;
const PER_PAIR = 2;
const MAX_EVENTS = 8;
const harness = appHarness();
const prefixes: string[] = [];
afterAll(async () => {
  await harness.stopAll();
  await Promise.all(prefixes.map((p) => deletePrefix(p)));
});

describe.each<StoreKind>(['memory', 'redis'])('challenge abuse on %s', (store) => {
  let run: Running;
  let a: TestAccount[];
  beforeAll(async () => {
    let storage: Storage;
    if (store === 'redis') {
      const prefix = uniquePrefix('challenge-abuse');
      prefixes.push(prefix);
      storage = await createRedisStorage(REDIS_URL, prefix, { feed: { maxEvents: MAX_EVENTS } });
    } else {
      storage = createMemoryStorage(undefined, { feed: { maxEvents: MAX_EVENTS } });
    }
    run = await harness.start(store, {
      storage,
      app: {
        quotas: {
          ongoingGamesPerAccount: 1000,
          tokensPerAccount: 1000,
          accountsPerIpPerDay: 1000,
          gamesPerIpPerDay: 1000,
          challengesPerAccount: PER_ACCOUNT,
          challengesPerPair: PER_PAIR,
        },
      },
    });
    a = [];
    for (let i = 0; i < 6; i++) a.push(await signUp(run.app, `ca${i}`, 'human'));
  });
  const who = (i: number) => a[i] as TestAccount;
  const challenge = (from: number, to: number | null) =>
    rest(run, who(from), 'POST', '/challenges', {
      kind: 'kalah',
      ...(to === null ? {} : { to: who(to).username }),
    });

  it('caps open challenges per sender→target pair and per sender, storing nothing refused', async () => {
    for (let i = 0; i < PER_PAIR; i++) expect((await challenge(0, 1)).status).toBe(201);
    const received = (await rest(run, who(1), 'GET', '/challenges')).body.items.length;
    const pair = await challenge(0, 1);
    expect([pair.status, pair.body.code, pair.body.scope, pair.body.max]).toEqual([
      409,
      'TOO_MANY_CHALLENGES',
      'pair',
      PER_PAIR,
    ]);
    expect((await rest(run, who(1), 'GET', '/challenges')).body.items).toHaveLength(received);
    // Other targets (and open challenges) until the sender's cap.
    for (let i = PER_PAIR; i < PER_ACCOUNT; i++)
      expect((await challenge(0, i === PER_PAIR ? null : 2 + (i % 3))).status).toBe(201);
    const all = await challenge(0, 5);
    expect([all.status, all.body.code, all.body.scope]).toEqual([409, 'TOO_MANY_CHALLENGES', 'account']);
    // Canceling one makes room again.
    const mine = (await rest(run, who(0), 'GET', '/challenges')).body.items;
    expect(mine).toHaveLength(PER_ACCOUNT);
    expect((await rest(run, who(0), 'POST', `/challenges/${mine[0].id}/cancel`)).status).toBe(200);
    expect((await challenge(0, 5)).status).toBe(201);
  });

  it('pages GET /challenges and GraphQL myChallenges: every open challenge once, newest first', async () => {
    // Account 5 receives from four senders (two each), plus what the first test sent it.
    for (const from of [1, 2, 3, 4]) for (let i = 0; i < PER_PAIR; i++) await challenge(from, 5);
    const everything = (await rest(run, who(5), 'GET', '/challenges')).body;
    expect(everything.next).toBeNull();
    expect(everything.items.length).toBeGreaterThanOrEqual(8);
    const seen: string[] = [];
    let before: number | null | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = (await rest(run, who(5), 'GET', `/challenges?limit=3${before ? `&before=${before}` : ''}`))
        .body;
      expect(page.items.length).toBeGreaterThanOrEqual(1);
      seen.push(...page.items.map((c: any) => c.id));
      before = page.next;
      if (before === null) break;
      expect(page.items.length).toBeGreaterThanOrEqual(3);
    }
    expect(seen).toEqual(everything.items.map((c: any) => c.id));
    const first = await gql(run.url, '{ myChallenges(limit: 3) { id createdAt } }', {}, who(5).auth);
    expect((first.body.data as any).myChallenges.map((c: any) => c.id)).toEqual(
      seen.slice(0, (first.body.data as any).myChallenges.length),
    );
    const bad = await rest(run, who(5), 'GET', '/challenges?limit=0');
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_INPUT']);
  });

  it(`keeps at most ${MAX_EVENTS} events in a feed; a trimmed seq answers EVENTS_EXPIRED`, async () => {
    // Account 1 hears of challenges from 2, 3, 4 (each canceled after, to stay under the caps).
    let sent = 0;
    for (let round = 0; round < 2; round++) {
      for (const from of [2, 3, 4]) {
        const c = (await challenge(from, 1)).body;
        await rest(run, who(from), 'POST', `/challenges/${c.id}/cancel`);
        sent++;
      }
    }
    expect(sent * 2).toBeGreaterThan(MAX_EVENTS);
    const feed = await run.app.services.feed.read({ token: who(1).token }, 0, 100).catch((e: any) => e);
    expect(feed.code).toBe('EVENTS_EXPIRED');
    const first = feed.details.first as number;
    const kept = await run.app.services.feed.read({ token: who(1).token }, first - 1, 100);
    expect(kept.events.length).toBeLessThanOrEqual(MAX_EVENTS);
    expect(kept.events.length).toBe(MAX_EVENTS);
  });
});
