// The lobby over GraphQL on both stores (issue #31): query seeks, createSeek with a ratingRange,
// mutation acceptSeek (exactly once under two accepters) and subscription lobby (a seek added, then
// removed).
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, wsClient, type Running, type StoreKind } from '../support/app';
import { failure, gqlAs, ok, subscriptionFailure } from '../support/graphql';
import { readStream } from '../support/stream-reader';

const harness = appHarness();
afterAll(() => harness.stopAll());

const SEEK_FIELDS = 'id account status rated ratingRange { min max } game { id seats { account } }';
const LOBBY_FIELDS = 'id account username rating provisional kind ratingRange { min max }';

let seed = 0;
/** A seek input no other test of this file posts (its own realtime clock). */
function uniqueSeek(extra: object = {}) {
  seed++;
  return {
    kind: 'kalah',
    timeControl: { type: 'realtime', initialSeconds: 900 + seed, incrementSeconds: 0 },
    ...extra,
  };
}

describe.each<StoreKind>(['memory', 'redis'])('the lobby over GraphQL on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  const createSeek = (who: TestAccount, input: object) =>
    ok(
      run.url,
      who.token,
      `mutation ($input: CreateSeekInput!) { createSeek(input: $input) { ${SEEK_FIELDS} } }`,
      {
        input,
      },
    );
  const acceptQuery = `mutation ($id: ID!) { acceptSeek(id: $id) { ${SEEK_FIELDS} } }`;

  it('lists seeks with their seekers, filtered and paged', async () => {
    const [ann, bob] = await Promise.all([signUp(run.app, 'ann', 'human'), signUp(run.app, 'bob', 'human')]);
    const a = (await createSeek(ann, uniqueSeek({ ratingRange: { min: 1400, max: null } }))).createSeek;
    expect(a).toMatchObject({ status: 'waiting', ratingRange: { min: 1400, max: null }, game: null });
    const b = (await createSeek(bob, { kind: 'oware', rated: true })).createSeek;
    const query = `query ($filter: LobbyFilter, $limit: Int, $after: String) {
      seeks(filter: $filter, limit: $limit, after: $after) { items { ${LOBBY_FIELDS} } next } }`;
    const mine = (items: Array<{ id: string; account: string }>) =>
      items.filter((s) => s.account === ann.id || s.account === bob.id);
    const all = (await ok(run.url, undefined, query, { limit: 100 })).seeks;
    expect(mine(all.items)).toEqual([
      {
        id: a.id,
        account: ann.id,
        username: ann.username,
        rating: 1500,
        provisional: true,
        kind: 'kalah',
        ratingRange: { min: 1400, max: null },
      },
      expect.objectContaining({ id: b.id, kind: 'oware', ratingRange: null }),
    ]);
    const rated = (await ok(run.url, undefined, query, { filter: { rated: true, kind: 'oware' } })).seeks;
    expect(mine(rated.items).map((s: { id: string }) => s.id)).toEqual([b.id]);
    const low = (await ok(run.url, ann.token, query, { filter: { rating: 1300, timeControl: 'realtime' } }))
      .seeks;
    expect(mine(low.items)).toEqual([]);
    const paged = (await ok(run.url, undefined, query, { limit: 1 })).seeks;
    expect(paged.items).toHaveLength(1);
    expect(typeof paged.next).toBe('string');
    expect((await failure(run.url, undefined, query, { limit: 0 })).code).toBe('INVALID_INPUT');
    expect(
      (
        await failure(
          run.url,
          ann.token,
          `mutation ($input: CreateSeekInput!) { createSeek(input: $input) { id } }`,
          {
            input: uniqueSeek({ ratingRange: { min: 1700, max: 1600 } }),
          },
        )
      ).code,
    ).toBe('INVALID_INPUT');
  });

  it('acceptSeek: one of two accepters gets the game, the other SEEK_NOT_FOUND', async () => {
    const [ann, bob, cat] = await Promise.all(
      ['ann', 'bob', 'cat'].map((label) => signUp(run.app, label, 'human')),
    );
    const seek = (await createSeek(ann!, uniqueSeek())).createSeek;
    expect((await failure(run.url, ann!.token, acceptQuery, { id: seek.id })).code).toBe('FORBIDDEN');
    const answers = await Promise.all(
      [bob!, cat!].map((who) => gqlAs(run.url, who.token, acceptQuery, { id: seek.id })),
    );
    const won = answers.filter((a) => !a.errors);
    const lost = answers.filter((a) => a.errors);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.errors![0]!.extensions!.code).toBe('SEEK_NOT_FOUND');
    const game = won[0]!.data!.acceptSeek;
    expect(game).toMatchObject({ id: seek.id, status: 'matched', account: ann!.id });
    expect(game.game.seats.map((s: { account: string }) => s.account)).toContain(ann!.id);
  });

  it('subscription lobby: the waiting seeks, ready, then a seek added and removed', async () => {
    const [ann, bob] = await Promise.all([signUp(run.app, 'ann', 'human'), signUp(run.app, 'bob', 'human')]);
    const client = wsClient(run.url);
    const iterator = client.iterate<{ lobby: Record<string, any> }>({
      query: `subscription { lobby(filter: { kind: "kalah", timeControl: realtime }) {
        type id reason listed more seek { ${LOBBY_FIELDS} } } }`,
    });
    const next = async () => {
      const result = await iterator.next();
      if (result.done) throw new Error('the lobby subscription completed');
      expect(result.value.errors).toBeUndefined();
      return result.value.data!.lobby;
    };
    try {
      // Up to `ready`: whatever earlier tests left waiting.
      let event = await next();
      while (event.type !== 'ready') event = await next();
      expect(event.more).toBe(false);
      const seek = (await createSeek(ann, uniqueSeek())).createSeek;
      expect(await next()).toMatchObject({
        type: 'seek.added',
        seek: { id: seek.id, username: ann.username, rating: 1500 },
      });
      const taken = await ok(run.url, bob.token, acceptQuery, { id: seek.id });
      expect(taken.acceptSeek.status).toBe('matched');
      expect(await next()).toMatchObject({
        type: 'seek.removed',
        id: seek.id,
        reason: 'matched',
        seek: null,
      });
    } finally {
      await iterator.return?.();
      await client.dispose();
    }
  });

  it('counts the lobby subscription in the open-stream caps, with the REST streams', async () => {
    const capped = await harness.start(store, {
      app: { streams: { perIp: 1, perToken: 10, maxBufferBytes: 1 << 20 } },
    });
    const first = await readStream(`${capped.url}/api/v1/seeks/stream`, { accept: 'application/x-ndjson' });
    const client = wsClient(capped.url);
    try {
      expect(await first.next(5000)).toMatchObject({ type: 'ready' });
      const refused = await subscriptionFailure(
        (async () => {
          const result = await client.iterate({ query: 'subscription { lobby { type } }' }).next();
          if (result.value?.errors) throw result.value.errors;
          return result;
        })(),
      );
      expect(refused.code).toBe('TOO_MANY_STREAMS');
    } finally {
      first.close();
      await client.dispose();
    }
  });
});
