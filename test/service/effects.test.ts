// What a write causes, decided without I/O: effectsOf over documents made by decide (and the timing
// functions), as the writer makes them. No store is written or read.
import { GameService } from '../../src/service/game/service';
import { Authenticator } from '../../src/service/accounts/auth';
import { NO_VACATIONS } from '../../src/service/time/clock';
import type { GameCommand } from '../../src/service/game/commands';
import { decide, DEFAULT_ABANDON_CLAIM_MS } from '../../src/service/game/decide';
import { effectsOf } from '../../src/service/game/effects';
import { timed, timedOut } from '../../src/service/game/timing';
import { replayState } from '../../src/service/game/rules';
import { toGameHeadView, toMoveView } from '../../src/service/game/view';
import { isSlim, renderGameData } from '../../src/service/delivery/feed-events';
import { createMemoryStorage } from '../../src/store/memory';
import { headOf, type RatingResult, type StoredGame, type TimeControl } from '../../src/store/store';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const DAY = 86_400_000;
const storage = createMemoryStorage(() => T0);
// Only for newGame, which builds a document and stores nothing.
const games = new GameService(storage, new Authenticator(storage.accounts, storage.apps, () => new Date(T0)));
const engine = games.engineFor('kalah');

function newGame(timeControl: TimeControl, rated = false): StoredGame {
  return games.newGame({
    kind: 'kalah',
    options: games.parseOptions(engine, {}),
    first: 0,
    accounts: ['alice', 'bob'],
    timeControl,
    at: new Date(T0).toISOString(),
    ...(rated
      ? {
          rated: new Map([
            ['alice', { rating: 1600, provisional: false }],
            ['bob', { rating: 1400, provisional: false }],
          ]),
        }
      : {}),
  });
}

/** `command` of `seat` at `at`, as the writer applies it: decided, then timed. */
function write(game: StoredGame, seat: 0 | 1, command: GameCommand, at: number): StoredGame {
  const { next } = decide(command, {
    game,
    seat,
    engine,
    at: new Date(at).toISOString(),
    abandonClaimMs: DEFAULT_ABANDON_CLAIM_MS,
    state: replayState,
  });
  return timed(game, next, at, NO_VACATIONS);
}

function effects(before: StoredGame, after: StoredGame, ratings: readonly RatingResult[] = []) {
  const added = after.moves.length > before.moves.length ? after.moves.at(-1) : undefined;
  const views = {
    game: toGameHeadView(engine, after, DEFAULT_ABANDON_CLAIM_MS),
    move: added ? toMoveView(engine, added) : null,
  };
  const e = effectsOf(before, after, views, ratings);
  // Notices are stored slim: render them as readers get them (and they must be the write's views).
  const notices = e.notices.map((n) => {
    if (!isSlim(n.data)) return n;
    const rendered = renderGameData(engine, headOf(after), n.type, n.data, n.at);
    expect(JSON.stringify(rendered.game)).toBe(JSON.stringify(views.game));
    return { ...n, data: rendered.data };
  });
  return { ...e, notices };
}

const correspondence: TimeControl = { type: 'correspondence', daysPerMove: 2 };

describe('effectsOf', () => {
  it('a move: game.moved to both accounts, my-turn to the side to move with the new deadline, TV unchanged', () => {
    const game = newGame(correspondence);
    const at = T0 + 60_000;
    const next = write(game, 0, { type: 'move', move: game.legalMoves[0] as string }, at);
    const e = effects(game, next);
    expect(e.notices.map((n) => [n.type, n.to])).toEqual([['game.moved', ['alice', 'bob']]]);
    expect(e.notices[0]?.data).toMatchObject({ seat: 0, move: next.moves[0]?.notation });
    // kalah: a move may end in the store and give the mover another turn; whoever moves next is to move.
    const mover = next.toMove === 0 ? 'alice' : 'bob';
    const deadline = Date.parse(next.deadlineAt as string);
    expect(deadline).toBe(at + 2 * DAY);
    expect(e.accounts).toEqual([
      { account: 'alice', status: 'ongoing', turn: mover === 'alice' ? deadline : null, ongoing: true },
      { account: 'bob', status: 'ongoing', turn: mover === 'bob' ? deadline : null, ongoing: true },
    ]);
    expect(e.featured).toBeNull();
    // The reminder comes before the deadline: the sweeper wakes for the earlier.
    expect(e.wake).toBe(Math.min(deadline, Date.parse(next.reminderAt as string)));
    expect(e.wake).toBeLessThan(deadline);
  });

  it('a resignation: game.finished, off my-turn and ongoing, listed finished, off TV, nothing to wake for', () => {
    const game = newGame(correspondence);
    const next = write(game, 1, { type: 'resign' }, T0 + 1000);
    const e = effects(game, next);
    expect(e.notices.map((n) => n.type)).toEqual(['game.finished']);
    expect(e.notices[0]?.data).toMatchObject({ result: { winner: 0, reason: 'resignation' } });
    expect(e.accounts).toEqual([
      { account: 'alice', status: 'finished', turn: null, ongoing: false },
      { account: 'bob', status: 'finished', turn: null, ongoing: false },
    ]);
    expect(e.featured).toEqual({ kind: 'kalah', id: game.id, add: false });
    expect(e.wake).toBeNull();
  });

  it('a draw offer: draw.offered by the seat; the turn and TV stay, the deadline is unchanged', () => {
    const game = newGame({ type: 'unlimited' });
    const next = write(game, 1, { type: 'draw.offer' }, T0 + 1000);
    const e = effects(game, next);
    expect(e.notices.map((n) => [n.type, n.data.by])).toEqual([['draw.offered', 1]]);
    expect(e.accounts.map((a) => [a.account, a.status, a.turn === null, a.ongoing])).toEqual([
      ['alice', 'ongoing', false, true],
      ['bob', 'ongoing', true, true],
    ]);
    expect(e.featured).toBeNull();
    // An unlimited game has no deadline to wake for.
    expect(e.wake).toBeNull();
  });

  it('a timeout: the side to move loses, game.finished, off TV', () => {
    const game = newGame({ type: 'realtime', initialSeconds: 60, incrementSeconds: 0 });
    const over = timedOut(game, T0 + 61_000, NO_VACATIONS);
    const e = effects(game, over);
    expect(over.outcome).toEqual({ winner: 1, reason: 'timeout' });
    expect(e.notices.map((n) => n.type)).toEqual(['game.finished']);
    expect(e.accounts.every((a) => a.status === 'finished' && !a.ongoing && a.turn === null)).toBe(true);
    expect(e.featured).toEqual({ kind: 'kalah', id: game.id, add: false });
    expect(e.wake).toBeNull();
  });

  it('a rated finish: each account carries its own result; a start joins TV with its score', () => {
    const game = newGame(correspondence, true);
    const next = write(game, 0, { type: 'resign' }, T0 + 1000);
    const result = (account: string, score: number): RatingResult => ({
      account,
      name: account,
      category: 'human',
      game: game.id,
      perf: 'kalah.correspondence',
      score,
      opponent: { rating: 1500, rd: 200, volatility: 0.06 },
      at: next.updatedAt,
    });
    const e = effects(game, next, [result('alice', 0), result('bob', 1)]);
    expect(e.accounts.map((a) => [a.account, a.rating?.score])).toEqual([
      ['alice', 0],
      ['bob', 1],
    ]);
    // The same game, reopened (as a new game is): TV takes it with its seats' average rating.
    const reopened = effects({ ...next, status: 'finished' }, game);
    expect(reopened.featured).toMatchObject({ kind: 'kalah', id: game.id, add: true });
    expect((reopened.featured as { score: number }).score).toBeGreaterThan(0);
  });
});
