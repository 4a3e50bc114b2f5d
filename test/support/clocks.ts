// Helpers for tests of time controls: a fake clock the apps share, and REST shortcuts for games
// between accounts.
import request from 'supertest';
import * as A from '../../src/transport/rest/accounts.schemas';
import * as S from '../../src/transport/rest/schemas';
import type { TestAccount } from './accounts';
import type { Running } from './app';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const iso = (ms: number) => new Date(ms).toISOString();

/** A clock that moves only when told: pass `now` to the apps (createApp({ now })). */
export interface FakeClock {
  t: number;
  readonly now: () => Date;
  /** Sets the time (epoch ms). */
  set(ms: number): void;
}

export function fakeClock(start: number): FakeClock {
  const clock: FakeClock = {
    t: start,
    now: () => new Date(clock.t),
    set: (ms) => {
      clock.t = ms;
    },
  };
  return clock;
}

/** REST calls as an account (or anonymous), against one app. */
export function restAs(run: Running) {
  return {
    get: (path: string, who?: TestAccount) => {
      const req = request(run.url).get(`/api/v1${path}`);
      return who ? req.set(who.auth) : req;
    },
    post: (path: string, who: TestAccount | null, body: object = {}) => {
      const req = request(run.url).post(`/api/v1${path}`);
      return (who ? req.set(who.auth) : req).send(body);
    },
    del: (path: string, who: TestAccount) => request(run.url).delete(`/api/v1${path}`).set(who.auth),
  };
}

/** A direct challenge from `from` (seat 0, moves first) to `to`, accepted: the game (checked against the schema). */
export async function challengeGame(
  run: Running,
  from: TestAccount,
  to: TestAccount,
  options: { kind?: string; timeControl?: object; acceptOn?: Running } = {},
): Promise<any> {
  const rest = restAs(run);
  const challenge = await rest
    .post('/challenges', from, {
      to: to.username,
      kind: options.kind ?? 'kalah',
      starts: 'challenger',
      ...(options.timeControl ? { timeControl: options.timeControl } : {}),
    })
    .expect(201);
  const accepted = await restAs(options.acceptOn ?? run)
    .post(`/challenges/${challenge.body.id}/accept`, to)
    .expect(200);
  return gameOf(run, accepted.body.gameId);
}

/** GET a game, checked against the REST schema. */
export async function gameOf(run: Running, id: string): Promise<any> {
  const res = await request(run.url).get(`/api/v1/games/${id}`).expect(200);
  expect(S.Game.parse(res.body)).toEqual(res.body);
  return res.body;
}

/** Every event of an account's feed so far (the JSON page), each checked against the schema. */
export async function feedOf(run: Running, account: TestAccount): Promise<any[]> {
  const res = await request(run.url)
    .get('/api/v1/account/events?after=0&limit=500')
    .set(account.auth)
    .set('Accept', 'application/json')
    .expect(200);
  for (const event of res.body.events) expect(A.FeedEvent.parse(event)).toEqual(event);
  // Numbered without gaps up to the feed's last seq (older events may have been trimmed).
  const seqs = res.body.events.map((e: { seq: number }) => e.seq);
  expect(seqs).toEqual(seqs.map((_: number, i: number) => res.body.last - seqs.length + 1 + i));
  return res.body.events;
}

/** A legal move after which the other side is to move (validated, not played). */
export async function passingMove(run: Running, game: { id: string; toMove: number; legalMoves: string[] }) {
  for (const move of game.legalMoves) {
    const check = await request(run.url).post(`/api/v1/games/${game.id}/validate`).send({ move }).expect(200);
    if (check.body.status === 'ongoing' && check.body.toMove !== game.toMove) return move;
  }
  throw new Error(`no move of ${game.id} passes the turn`);
}
