// The computer as an opponent over REST: a client plays whole games against the AI at level 1
// (its account and a seat-token game), on both stores; the AI's moves arrive in the game stream and
// the feed as ordinary moves; overload of analyses is refused with typed errors.
import { GAME_KINDS } from '../../src/engines/types';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, type Running, call } from '../support/app';
import { openFeed } from '../support/feed-client';
import { openGameStream, type GameStream } from '../support/game-stream';

const harness = appHarness();
afterAll(() => harness.stopAll());

/**
 * Plays `seat` with `auth` until the game is over, moving whenever the stream says it is that
 * seat's turn; returns the last game seen and the plies each side played.
 */
async function playOut(run: Running, stream: GameStream, seat: number, auth: object, seed: number) {
  const pick = chooser(seed);
  const plies: number[][] = [[], []];
  let from: number | undefined;
  let seen = 0;
  for (;;) {
    const message = await stream.until(
      (m, i = stream.messages.indexOf(m)) => i >= seen && (m.type === 'game' || m.type === 'update'),
      20_000,
    );
    seen = stream.messages.indexOf(message) + 1;
    const game = message.type === 'game' ? message.data : message.data.game;
    from ??= game.ply as number;
    if (message.type === 'update' && message.data.move)
      plies[message.data.move.seat as number]?.push(message.data.move.ply);
    if (game.status === 'finished') return { game, plies, from: from as number };
    if (game.toMove === seat) {
      const move = pick(game.legalMoves);
      const res = await call(
        run,
        'POST',
        `/games/${game.id}/moves`,
        { move },
        { ...auth, 'if-match': `"${game.version}"` },
      );
      expect([200, 409]).toContain(res.status);
    }
  }
}

describe.each(['memory', 'redis'] as const)('playing the computer over REST (%s)', (store) => {
  let run: Running;
  let human: TestAccount;
  beforeAll(async () => {
    run = await harness.start(store, { app: { ai: { pool: { workers: 1 } } } });
    human = await signUp(run.app, 'vs-ai', 'human');
  });

  it.each(GAME_KINDS)(
    'plays a whole %s game at level 1 against an account; the AI moves as a player',
    async (kind) => {
      // Opened first: every event of the new game arrives on it.
      const feed = await openFeed(run.url, human.token, { format: 'ndjson' });
      const created = await call(
        run,
        'POST',
        '/challenges/ai',
        { kind, level: 1, color: 'random' },
        human.auth,
      );
      expect(created.status).toBe(201);
      const game = created.body;
      const mine = game.seats.findIndex((s: any) => s.account === human.id);
      const ai = 1 - mine;
      expect(game.seats[ai].account).toBe('ai-level-1');
      const stream = await openGameStream(run.url, game.id);
      const { game: last, plies, from } = await playOut(run, stream, mine, human.auth, kind.length);
      stream.close();
      expect(last.status).toBe('finished');
      // Every ply was played once, by the seat to move: the AI's are ordinary moves of the record.
      const record = await call(run, 'GET', `/games/${game.id}`);
      expect(record.body.moves.map((m: any) => m.ply)).toEqual(
        record.body.moves.map((_: any, i: number) => i + 1),
      );
      const aiPlies = record.body.moves.filter((m: any) => m.seat === ai).map((m: any) => m.ply);
      expect(aiPlies.length).toBeGreaterThan(0);
      // The stream carried every move after the version it opened at, the AI's among them.
      expect(plies[ai]).toEqual(aiPlies.filter((p: number) => p > from));
      // The feed carries the AI's moves as game.moved events, every one of them.
      const moved: number[] = [];
      for (;;) {
        const message = await feed.next(10_000);
        const event = message.data;
        if (event.data?.game?.id !== game.id) continue;
        if (event.type === 'game.moved' && event.data.played.seat === ai) moved.push(event.data.played.ply);
        if (event.type === 'game.finished') break;
      }
      feed.close();
      expect(moved).toEqual(aiPlies);
      // The game is listed with the AI account like any other.
      const listed = await call(run, 'GET', `/games?account=ai-level-1&kind=${kind}&status=finished`);
      expect(listed.body.items.map((g: any) => g.id)).toContain(game.id);
    },
  );

  it('plays a seat-token game against the computer, the AI moving first when it holds the first seat', async () => {
    const created = await call(run, 'POST', '/games/ai', { kind: 'kalah', level: 1, seat: 'north' });
    expect(created.status).toBe(201);
    const { game, seatTokens } = created.body;
    expect(seatTokens).toHaveLength(1);
    expect(seatTokens[0].seat).toBe(1);
    expect(game.seats[0].account).toBe('ai-level-1');
    const stream = await openGameStream(run.url, game.id);
    const auth = { authorization: `Bearer ${seatTokens[0].token}` };
    const { game: last } = await playOut(run, stream, 1, auth, 7);
    stream.close();
    expect(last.status).toBe('finished');
    const record = await call(run, 'GET', `/games/${game.id}`);
    expect(record.body.moves[0].seat).toBe(0);
    expect(record.body.moves.every((m: any, i: number) => m.ply === i + 1)).toBe(true);
  });

  it('refuses bad AI challenges with typed errors and stores nothing', async () => {
    const bad = [
      [{ kind: 'kalah', level: 9 }, 400],
      [{ kind: 'chess', level: 1 }, 400],
      [{ kind: 'kalah', level: 1, color: 'purple' }, 400],
      [{ kind: 'kalah', level: 1, position: 'nonsense' }, 400],
    ] as const;
    for (const [body, status] of bad) {
      const res = await call(run, 'POST', '/challenges/ai', body, human.auth);
      expect(res.status).toBe(status);
      expect(res.body.code).toMatch(/INVALID_INPUT|UNKNOWN_GAME_KIND|INVALID_POSITION/);
    }
    expect((await call(run, 'POST', '/challenges/ai', { kind: 'kalah', level: 1 })).status).toBe(401);
    const ongoing = await call(run, 'GET', `/games?account=${human.id}&status=ongoing`);
    expect(ongoing.body.items).toEqual([]);
  });

  it('reserves the AI usernames', async () => {
    const res = await call(run, 'POST', '/accounts', { username: 'AI-Level-3' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('USERNAME_TAKEN');
  });
});
