// Feed events are stored slim (src/service/delivery/feed-events.ts) and rendered when read or
// delivered (feed-render.ts): for every kind, each stored game event is the slim form, and what the
// feed reads and delivers live is, byte for byte, the head view (and move view) of the version it
// tells of; events stored in the old full form still read as they are.
import request from 'supertest';
import { GAME_KINDS } from '../../src/engines/types';
import { isSlim } from '../../src/service/delivery/feed-events';
import type { GameHeadView } from '../../src/service/game/view';
import type { FeedEvent } from '../../src/store/store';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, type Running, type StoreKind } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** Plies played per game (then a draw offer declined, a takeback where allowed, a resignation). */
const PLIES = 24;

/** Each kind plays under one of these (by its index): deadlines, running clocks, claimable games. */
const TIME_CONTROLS = [
  { type: 'correspondence', daysPerMove: 3 },
  { type: 'realtime', initialSeconds: 600, incrementSeconds: 5 },
  { type: 'unlimited' },
] as const;

async function accountGame(run: Running, kind: string, timeControl: object = TIME_CONTROLS[0]) {
  const x = await signUp(run.app, 'x', 'bot');
  const y = await signUp(run.app, 'y', 'bot');
  const challenge = await request(run.url)
    .post('/api/v1/challenges')
    .set(x.auth)
    .send({
      to: y.username,
      kind,
      starts: 'challenger',
      timeControl,
    })
    .expect(201);
  const accepted = await request(run.url)
    .post(`/api/v1/challenges/${challenge.body.id}/accept`)
    .set(y.auth)
    .expect(200);
  return { x, y, id: accepted.body.gameId as string };
}

/** The head view of the game as stored now (what the write that made this version built). */
async function headNow(run: Running, id: string): Promise<GameHeadView> {
  const game = await run.storage.games.get(id);
  if (!game) throw new Error(`no game ${id}`);
  return run.app.services.games.headView(game);
}

describe.each<StoreKind>(['redis', 'memory'])('slim feed events on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  it.each(GAME_KINDS)('%s: stored slim, read and delivered live as the write built them', async (kind) => {
    const { x, y, id } = await accountGame(run, kind, TIME_CONTROLS[GAME_KINDS.indexOf(kind) % 3]);
    const seats: Record<number, TestAccount> = { 0: x, 1: y };
    const live: FeedEvent[] = [];
    const follow = await run.app.services.feed.follow(
      { token: x.token },
      undefined,
      (event) => live.push(event),
      (error) => {
        throw error;
      },
    );
    const heads = new Map<number, string>();
    const moves = new Map<number, string>();
    const pick = chooser(kind.length * 17 + 3);
    let game = (await request(run.url).get(`/api/v1/games/${id}`).expect(200)).body;
    heads.set(game.version, JSON.stringify(await headNow(run, id)));
    const act = async (who: TestAccount, path: string, body?: object) => {
      const res = await request(run.url).post(`/api/v1/games/${id}/${path}`).set(who.auth).send(body);
      expect(res.status).toBe(200);
      game = (await request(run.url).get(`/api/v1/games/${id}`).expect(200)).body;
      heads.set(game.version, JSON.stringify(await headNow(run, id)));
      return res.body;
    };
    for (let i = 0; i < PLIES && game.status === 'ongoing'; i++) {
      await act(seats[game.toMove] as TestAccount, 'moves', { move: pick(game.legalMoves) });
      moves.set(game.version, JSON.stringify(game.moves.at(-1)));
    }
    if (game.status === 'ongoing') {
      await act(x, 'draw/offer');
      await act(y, 'draw/decline');
      if (game.settings.takeback && game.ply > 0) {
        await act(seats[game.toMove === 0 ? 1 : 0] as TestAccount, 'takeback/offer');
        await act(seats[game.toMove] as TestAccount, 'takeback/decline');
      }
      await act(x, 'resign');
    }

    const stored = (await run.storage.feed.read(x.id, 0, 1000)).events.filter((e) => e.data.game || e.data.g);
    expect(stored.length).toBeGreaterThan(2);
    expect(stored.every((e) => isSlim(e.data))).toBe(true);
    const moved = stored.filter((e) => e.type === 'game.moved').map((e) => JSON.stringify(e.data).length);
    expect(Math.max(...moved)).toBeLessThan(300);

    const read = (await run.app.services.feed.read({ token: x.token }, 0, 500)).events;
    const told = read.filter((e) => (e.data.game as GameHeadView | undefined)?.id === id);
    expect(told.map((e) => e.type)).toEqual(stored.map((e) => e.type));
    for (const event of told) {
      const game = event.data.game as GameHeadView;
      expect(JSON.stringify(game)).toBe(heads.get(game.version));
      if (event.type === 'game.moved') {
        const played = event.data.played as { notation: string; seat: number };
        expect(JSON.stringify(played)).toBe(moves.get(game.version));
        expect(Object.keys(event.data)).toEqual(['game', 'move', 'seat', 'played']);
        expect([event.data.move, event.data.seat]).toEqual([played.notation, played.seat]);
      }
      if (event.type === 'game.finished') expect(event.data).toEqual({ game, result: game.result });
    }
    await waitFor(() => live.length >= read.length - 2);
    await follow.stop();
    expect(live.map((e) => JSON.stringify(e))).toEqual(read.slice(2).map((e) => JSON.stringify(e)));
  });

  it('reads events stored in the full form (before slim events) as they are', async () => {
    const { x, id } = await accountGame(run, 'kalah');
    const game = await headNow(run, id);
    const at = new Date().toISOString();
    const full = { game, move: 'a', seat: 0, played: { ply: 1, notation: 'a', seat: 0, at, details: null } };
    await run.storage.feed.append([{ to: [x.id], type: 'game.moved', at, data: full }]);
    const events = (await run.app.services.feed.read({ token: x.token }, 0, 500)).events;
    expect(JSON.stringify(events.at(-1)?.data)).toBe(JSON.stringify(full));
  });
});

async function waitFor(ready: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
