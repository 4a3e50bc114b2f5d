// Two island apps for the isolation tests: B's objects (accounts, games, challenges, a tournament,
// a seek, a bulk, a webhook, sessions, ratings, blocks) made through the API or straight through
// the store, a snapshot of all of them, and A's callers (bare key, key acting, session, anonymous).
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { newPersonalToken } from '../../src/service/accounts/auth';
import { parseTimeControl } from '../../src/service/time/control';
import type { Running } from '../support/app';
import { appAccount, newApp, type TestApp } from '../support/apps';

export interface Minted {
  readonly token: string;
  readonly tokenId: string;
  readonly sessionId: string;
}

/**
 * A session of `account` minted straight through the store (a StoredToken with `session` set), as
 * the sessions API does; its access token is an ordinary bhp_ token.
 */
export async function mintSession(run: Running, app: TestApp, account: string): Promise<Minted> {
  const [key] = await run.storage.apps.listKeys(app.id);
  if (!key) throw new Error('the app has no key');
  const { token, hash } = newPersonalToken();
  const sessionId = `ses_${randomBytes(8).toString('hex')}`;
  const tokenId = randomBytes(8).toString('hex');
  const at = new Date();
  const scopes = ['game:read', 'game:play', 'challenge:write', 'challenge:bulk'] as const;
  await run.storage.apps.createSession(
    {
      id: sessionId,
      app: app.id,
      account,
      key: key.id,
      scopes,
      refreshHash: randomBytes(32).toString('hex'),
      accessToken: tokenId,
      generation: 0,
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + 86_400_000).toISOString(),
      revokedAt: null,
    },
    {
      id: tokenId,
      account,
      hash,
      scopes,
      label: 'session',
      createdAt: at.toISOString(),
      revokedAt: null,
      expiresAt: new Date(at.getTime() + 3_600_000).toISOString(),
      session: { app: app.id, key: key.id, id: sessionId },
    },
  );
  return { token, tokenId, sessionId };
}

export interface World {
  readonly a: TestApp;
  readonly b: TestApp;
  readonly a1: { id: string; username: string };
  readonly aSession: Minted;
  readonly b1: { id: string; username: string; externalId: string };
  readonly b2: { id: string; username: string; externalId: string };
  readonly b1Session: Minted;
  readonly b2Session: Minted;
  /** B's ids by what they name (path parameters are filled from these). */
  readonly ids: {
    readonly privateGame: string;
    readonly publicGame: string;
    readonly challenge: string;
    readonly openChallenge: string;
    readonly tournament: string;
    readonly seek: string;
    readonly bulk: string;
    readonly webhook: string;
    readonly keyId: string;
  };
  /** Every string that names something of B's: no answer to A or anonymous may contain one. */
  readonly markers: readonly string[];
}

async function ok<T>(promise: PromiseLike<request.Response>): Promise<T> {
  const res = await promise;
  if (res.status < 200 || res.status > 299) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** Stores a game of b1 and b2 in B's pool, with this visibility (as a create in B would make it). */
async function storeGame(run: Running, b: TestApp, seats: [string, string], visibility: string) {
  const games = run.app.services.games;
  const engine = games.engineFor('kalah');
  const game = games.newGame({
    kind: 'kalah',
    options: games.parseOptions(engine, undefined),
    first: 0,
    accounts: seats,
    timeControl: parseTimeControl(null),
    at: new Date().toISOString(),
  });
  const stored = { ...game, app: b.id, pool: b.id, visibility: visibility as 'private' | 'public' };
  const created = await run.storage.games.create(stored);
  if (created.status !== 'created') throw new Error(`game not stored: ${created.status}`);
  return game.id;
}

/** Apps A and B (islands), their accounts, and B's objects. */
export async function makeWorld(run: Running): Promise<World> {
  const url = run.url;
  const a = await newApp(run.app, {}, 'iso-a');
  const b = await newApp(run.app, {}, 'iso-b');
  const a1 = await appAccount(run.storage, a, 'a-one');
  const aSession = await mintSession(run, a, a1.id);
  const b1 = { ...(await appAccount(run.storage, b, 'b-one')), externalId: 'b-one' };
  const b2 = { ...(await appAccount(run.storage, b, 'b-two')), externalId: 'b-two' };
  const [b1Session, b2Session] = [await mintSession(run, b, b1.id), await mintSession(run, b, b2.id)];
  const asB1 = b.as(b1.id);
  const privateGame = await storeGame(run, b, [b1.id, b2.id], 'private');
  const publicGame = await storeGame(run, b, [b2.id, b1.id], 'public');
  const challenge = await ok<{ id: string }>(
    request(url).post('/api/v1/challenges').set(asB1).send({ to: b2.id, kind: 'kalah' }),
  );
  const open = await ok<{ id: string }>(
    request(url).post('/api/v1/challenges').set(asB1).send({ kind: 'kalah' }),
  );
  const tournament = await ok<{ id: string }>(
    request(url)
      .post('/api/v1/tournaments')
      .set(asB1)
      .send({
        name: 'B cup',
        kind: 'kalah',
        format: 'swiss',
        timeControl: { type: 'correspondence', daysPerMove: 3 },
      }),
  );
  await ok(request(url).post(`/api/v1/tournaments/${tournament.id}/join`).set(b.as(b2.id)));
  const seek = await ok<{ id: string }>(
    request(url).post('/api/v1/seeks').set(b.as(b2.id)).send({ kind: 'kalah' }),
  );
  const bulk = await ok<{ id: string }>(
    request(url)
      .post('/api/v1/bulk-pairings')
      .set(asB1)
      .send({
        kind: 'kalah',
        pairs: [[b1Session.token, b2Session.token]],
        startAt: new Date(Date.now() + 86_400_000).toISOString(),
      }),
  );
  const webhook = await ok<{ id: string }>(
    request(url)
      .post('/api/v1/account/webhooks')
      .set(asB1)
      .send({ url: 'http://127.0.0.1:9/b-hook', events: ['game.started'] }),
  );
  await ok(
    request(url)
      .put(`/api/v1/account/blocks/${encodeURIComponent(b2.id)}`)
      .set(asB1),
  );
  // b1 on B's leaderboard (enough rated results to be ranked).
  for (let i = 0; i < 20; i++) {
    await run.storage.ratings.record({
      account: b1.id,
      name: b1.username,
      category: 'human',
      game: `bgame${i}`,
      perf: 'kalah.realtime',
      score: i % 2,
      opponent: { rating: 1500, rd: 60, volatility: 0.06 },
      at: new Date(Date.now() - (20 - i) * 60_000).toISOString(),
      pool: b.id,
    });
  }
  const [key] = await run.storage.apps.listKeys(b.id);
  const ids = {
    privateGame,
    publicGame,
    challenge: challenge.id,
    openChallenge: open.id,
    tournament: tournament.id,
    seek: seek.id,
    bulk: bulk.id,
    webhook: webhook.id,
    keyId: key?.id ?? 'none',
  };
  const markers = [b1.id, b2.id, b1.username, b2.username, ...Object.values(ids), b1Session.sessionId];
  return { a, b, a1, aSession, b1, b2, b1Session, b2Session, ids, markers };
}

/** Everything of B's as the store holds it (volatile last-use times left out). */
export async function snapshot(run: Running, world: World): Promise<string> {
  const s = run.storage;
  const { b1, b2, ids, b } = world;
  const accounts = [b1.id, b2.id];
  const per = await Promise.all(
    accounts.map(async (id) => ({
      account: await s.accounts.getAccount(id),
      tokens: (await s.accounts.listTokens(id)).map(({ lastUsedAt: _, ...t }) => t),
      ratings: await s.ratings.get(id),
      blocks: await s.blocks.listBlocks(id, 100),
      feed: (await s.feed.read(id, 0, 1000)).events.length,
      webhooks: (await s.webhooks.listWebhooks(id)).length,
      ongoing: await s.games.countOngoing(id),
      sessions: await s.apps.listSessions(id),
      push: await s.push.getPushEndpoint(id),
      tournaments: (await s.tournaments.listOf(id, 100)).items.map((t) => t.id),
    })),
  );
  const games = await Promise.all([ids.privateGame, ids.publicGame].map((id) => s.games.get(id)));
  return JSON.stringify({
    per,
    games: games.map((g) => g && { version: g.version, status: g.status, ply: g.ply, seats: g.seats }),
    challenges: await Promise.all(
      [ids.challenge, ids.openChallenge].map((id) => s.challenges.getChallenge(id)),
    ),
    tournament: await s.tournaments.get(ids.tournament),
    seek: await s.seeks.getSeek(ids.seek),
    bulk: await s.bulks.get(ids.bulk),
    keys: (await s.apps.listKeys(b.id)).map(({ lastUsedAt: _, ...k }) => k),
    app: await s.apps.getApp(b.id),
    board: await s.ratings.leaderboard('kalah.realtime', 'human', 100, 0, b.id),
  });
}
