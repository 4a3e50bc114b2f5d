// Writes a store fixture (test/fixtures/store-<commit>.json, loaded by test/apps/old-store.test.ts):
// a server on Redis under a prefix, data written through its API, and the keyspace dumped. Run it in a
// checkout of the version whose data the next one must read, with this file and store-snapshot.ts
// copied in: `node -r @swc-node/register test/support/write-store-fixture.ts <out.json>`.
import Redis from 'ioredis';
import { writeFileSync } from 'node:fs';
import request from 'supertest';
import { createApp } from '../../src/app';
import { createRedisStorage } from '../../src/store/redis';
import { dumpPrefix } from './store-snapshot';

async function main() {
  const prefix = 'bhsnap:old:';
  const redis = new Redis('redis://127.0.0.1:6379');
  const stale = await redis.keys(`${prefix}*`);
  if (stale.length) await redis.del(...stale);
  const storage = await createRedisStorage('redis://127.0.0.1:6379', prefix);
  const app = await createApp({ storage, sweepIntervalMs: 0 });
  const port = await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const ann = (await request(url).post('/api/v1/accounts').send({ username: 'OldAnn' }).expect(201)).body;
  const bob = (await request(url).post('/api/v1/accounts').send({ username: 'oldbob' }).expect(201)).body;
  const A = { authorization: `Bearer ${ann.token.token}` };
  const B = { authorization: `Bearer ${bob.token.token}` };
  // A rated game between them, two moves in; an open challenge; a seat-token game; a finished game.
  const ch = (
    await request(url)
      .post('/api/v1/challenges')
      .set(A)
      .send({ to: 'oldbob', kind: 'kalah', starts: 'challenger', rated: true })
      .expect(201)
  ).body;
  await request(url).post(`/api/v1/challenges/${ch.id}/accept`).set(B).expect(200);
  await request(url).post(`/api/v1/games/${ch.id}/moves`).set(A).send({ move: '1' }).expect(200);
  const g1 = (await request(url).get(`/api/v1/games/${ch.id}`).expect(200)).body;
  await request(url).post(`/api/v1/games/${ch.id}/moves`).set(B).send({ move: g1.legalMoves[0] }).expect(200);
  const open = (
    await request(url)
      .post('/api/v1/challenges')
      .set(B)
      .send({ to: 'OldAnn', kind: 'oware', starts: 'challenger' })
      .expect(201)
  ).body;
  const seat = (await request(url).post('/api/v1/games').send({ kind: 'congkak' }).expect(201)).body;
  const ch2 = (
    await request(url)
      .post('/api/v1/challenges')
      .set(B)
      .send({ to: 'oldann', kind: 'kalah', starts: 'challenger', rated: true })
      .expect(201)
  ).body;
  await request(url).post(`/api/v1/challenges/${ch2.id}/accept`).set(A).expect(200);
  await request(url).post(`/api/v1/games/${ch2.id}/resign`).set(A).expect(200);
  await new Promise((r) => setTimeout(r, 1500)); // the relay applies feeds and ratings
  const snapshot = await dumpPrefix(
    redis,
    prefix,
    `b4ed809 (#29 landed): accounts OldAnn and oldbob; game ${ch.id} ongoing (2 plies, rated); open challenge ${open.id}; seat game ${seat.game.id}; game ${ch2.id} finished by resignation (rated)`,
  );
  const ids = {
    ann: { token: ann.token.token },
    bob: { token: bob.token.token },
    ongoing: ch.id,
    open: open.id,
    seat: seat.game.id,
    seatToken: seat.seats?.[0]?.token ?? seat.tokens?.[0] ?? null,
    finished: ch2.id,
  };
  writeFileSync(process.argv[2] as string, JSON.stringify({ ...snapshot, ids }, null, 1) + '\n');
  await app.stop();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  console.log(`${Object.keys(snapshot.keys).length} keys`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
