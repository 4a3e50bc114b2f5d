// The arithmetic of time controls (src/service/time/clock.ts), without storage.
import {
  abandonClaimAt,
  DAY_MS,
  clockAfter,
  isOverdue,
  pausedEnd,
  reminderLeadMs,
  retime,
  sameTiming,
  startTiming,
  type Vacations,
} from '../../src/service/time/clock';
import type { StoredGame, TimeControl } from '../../src/store/store';

const T0 = Date.parse('2031-01-10T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 60 * 60 * 1000;

/** A game of ann (seat 0, to move) and bob. */
function game(timeControl: TimeControl, overrides: Partial<StoredGame> = {}): StoredGame {
  return {
    id: 'clockgame001',
    kind: 'kalah',
    rulesVersion: '1',
    options: {},
    first: 0,
    seats: [
      { seat: 0, name: 'south', account: 'ann' },
      { seat: 1, name: 'north', account: 'bob' },
    ],
    seatTokenHashes: ['', ''],
    status: 'ongoing',
    outcome: null,
    ply: 0,
    version: 0,
    toMove: 0,
    position: '',
    legalMoves: [],
    moves: [],
    drawOffer: null,
    timeControl,
    createdAt: iso(T0),
    updatedAt: iso(T0),
    ...overrides,
  };
}

/** `before` after a move by the side to move at `at` (the other side to move next). */
function afterMove(before: StoredGame, at: number, nextToMove: 0 | 1 | null = before.toMove === 0 ? 1 : 0) {
  const seat = before.toMove ?? 0;
  return {
    ...before,
    ply: before.ply + 1,
    toMove: nextToMove,
    status: nextToMove === null ? ('finished' as const) : ('ongoing' as const),
    moves: [...before.moves, { ply: before.ply + 1, notation: '1', seat, at: iso(at) }],
  };
}

const NONE: Vacations = new Map();

describe('pausedEnd', () => {
  const w = (from: number, until: number) => ({ from: iso(from), until: iso(until) });
  it('adds the duration outside the vacation windows', () => {
    expect(pausedEnd(T0, 10, [])).toBe(T0 + 10);
    // Windows before the start, or starting exactly when the time runs out, change nothing.
    expect(pausedEnd(T0, 10, [w(T0 - 50, T0 - 5), w(T0 + 10, T0 + 99)])).toBe(T0 + 10);
    // A window inside the stretch moves its end by its length.
    expect(pausedEnd(T0, 10, [w(T0 + 3, T0 + 8)])).toBe(T0 + 15);
    // A window in progress at the start counts from the start only.
    expect(pausedEnd(T0, 10, [w(T0 - 4, T0 + 6)])).toBe(T0 + 16);
    // Several windows.
    expect(pausedEnd(T0, 10, [w(T0 + 1, T0 + 2), w(T0 + 5, T0 + 25)])).toBe(T0 + 31);
  });
});

describe('realtime clocks (Fischer)', () => {
  const tc: TimeControl = { type: 'realtime', initialSeconds: 60, incrementSeconds: 5 };

  it("runs the first mover's clock from the start, then charges each move and adds the increment", () => {
    const start = game(tc);
    const t = startTiming(start, T0, NONE);
    expect(t.clock).toEqual({ remainingMs: [60_000, 60_000], runningSince: iso(T0) });
    expect(t.deadlineAt).toBe(iso(T0 + 60_000));
    expect(t.reminderAt).toBeNull();
    const g0 = { ...start, ...t };
    const g1m = afterMove(g0, T0 + 12_345);
    const t1 = retime(g0, g1m, T0 + 12_345, NONE);
    expect(t1.clock).toEqual({ remainingMs: [52_655, 60_000], runningSince: iso(T0 + 12_345) });
    expect(t1.deadlineAt).toBe(iso(T0 + 12_345 + 60_000));
    // Bob moves and keeps the turn (a Kalah extra turn): his clock runs again from his move.
    const g1 = { ...g1m, ...t1 };
    const g2m = afterMove(g1, T0 + 20_000, 1);
    const t2 = retime(g1, g2m, T0 + 20_000, NONE);
    expect(t2.clock).toEqual({ remainingMs: [52_655, 57_345], runningSince: iso(T0 + 20_000) });
    expect(t2.deadlineAt).toBe(iso(T0 + 20_000 + 57_345));
  });

  it('leaves the clocks alone on a write without a move, and stops them when the game ends', () => {
    const g0 = { ...game(tc), ...startTiming(game(tc), T0, NONE) };
    const offered = { ...g0, drawOffer: 0 as const };
    expect(retime(g0, offered, T0 + 5000, NONE).clock).toEqual(g0.clock);
    const resigned = { ...g0, status: 'finished' as const, toMove: null };
    expect(retime(g0, resigned, T0 + 5000, NONE)).toMatchObject({
      clock: { remainingMs: [55_000, 60_000], runningSince: null },
      deadlineAt: null,
    });
    expect(clockAfter(g0, resigned, T0 + 70_000, true)).toEqual({
      remainingMs: [0, 60_000],
      runningSince: null,
    });
  });

  it('is overdue exactly when the remaining time reaches zero', () => {
    const g0 = { ...game(tc), ...startTiming(game(tc), T0, NONE) };
    expect(isOverdue(g0, T0 + 59_999, NONE)).toBe(false);
    expect(isOverdue(g0, T0 + 60_000, NONE)).toBe(true);
    expect(isOverdue({ ...g0, status: 'finished' }, T0 + 90_000, NONE)).toBe(false);
  });
});

describe('correspondence deadlines', () => {
  const tc: TimeControl = { type: 'correspondence', daysPerMove: 3 };

  it('gives each move its days from the previous move, with the reminder 10% (at most 24 h) before', () => {
    expect(reminderLeadMs(1)).toBe(2.4 * HOUR);
    expect(reminderLeadMs(10)).toBe(24 * HOUR);
    expect(reminderLeadMs(14)).toBe(24 * HOUR);
    const g0 = { ...game(tc), ...startTiming(game(tc), T0, NONE) };
    expect(g0).toMatchObject({ clock: null, deadlineAt: iso(T0 + 3 * DAY_MS) });
    expect(g0.reminderAt).toBe(iso(T0 + 3 * DAY_MS - 7.2 * HOUR));
    const g1m = afterMove(g0, T0 + DAY_MS);
    expect(retime(g0, g1m, T0 + DAY_MS, NONE)).toMatchObject({
      deadlineAt: iso(T0 + 4 * DAY_MS),
      reminderAt: iso(T0 + 4 * DAY_MS - 7.2 * HOUR),
    });
  });

  it("stands still during the mover's vacation, shows it on the seat, and ignores the opponent's", () => {
    const vacation = { from: iso(T0 + HOUR), until: iso(T0 + HOUR + 2 * DAY_MS) };
    const annAway: Vacations = new Map([['ann', [vacation]]]);
    const g0 = game(tc);
    const t = retime(g0, g0, T0 + 2 * HOUR, annAway);
    expect(t.deadlineAt).toBe(iso(T0 + 5 * DAY_MS));
    expect(t.reminderAt).toBe(iso(T0 + 5 * DAY_MS - 7.2 * HOUR));
    expect(t.seats.map((s) => s.vacationUntil)).toEqual([vacation.until, null]);
    const bobAway: Vacations = new Map([['bob', [vacation]]]);
    const b = retime(g0, g0, T0 + 2 * HOUR, bobAway);
    expect(b.deadlineAt).toBe(iso(T0 + 3 * DAY_MS));
    expect(b.seats.map((s) => s.vacationUntil)).toEqual([null, vacation.until]);
    // The timeout check recomputes with the vacations it is given.
    const stored = { ...g0, ...startTiming(g0, T0, NONE) };
    expect(isOverdue(stored, T0 + 3 * DAY_MS, NONE)).toBe(true);
    expect(isOverdue(stored, T0 + 3 * DAY_MS, annAway)).toBe(false);
    expect(sameTiming(stored, retime(stored, stored, T0 + 2 * HOUR, annAway))).toBe(false);
    expect(sameTiming(stored, retime(stored, stored, T0 + 2 * HOUR, NONE))).toBe(true);
  });

  it('sends no reminder to a seat without an account, and has no deadline without a time limit', () => {
    const tokens = game(tc, {
      seats: [
        { seat: 0, name: 'south', account: null },
        { seat: 1, name: 'north', account: null },
      ],
    });
    expect(startTiming(tokens, T0, NONE)).toMatchObject({
      deadlineAt: iso(T0 + 3 * DAY_MS),
      reminderAt: null,
    });
    const free = game({ type: 'unlimited' });
    expect(startTiming(free, T0, NONE)).toEqual({
      clock: null,
      deadlineAt: null,
      reminderAt: null,
      seats: free.seats,
      // Its turn began now: the player waiting may claim an abandoned game from there (below).
      turnStartedAt: iso(T0),
    });
  });
});

describe('the abandon claim of unlimited games (turnStartedAt, abandonClaimAt)', () => {
  const unlimited = { type: 'unlimited' } as const;
  const PERIOD = 3 * DAY_MS;
  /** `game` with the time fields a write at `at` gives it (as the writer applies them). */
  const timed = (before: StoredGame, after: StoredGame, at: number) => ({
    ...after,
    ...retime(before, after, at, NONE),
  });

  it('counts from the start, then from each move; other writes and later reads keep it', () => {
    const start = timed(game(unlimited), game(unlimited), T0);
    expect(start.turnStartedAt).toBe(iso(T0));
    expect(abandonClaimAt(start, PERIOD)).toBe(T0 + PERIOD);
    const moved = timed(start, afterMove(start, T0 + HOUR), T0 + HOUR);
    expect(moved.turnStartedAt).toBe(iso(T0 + HOUR));
    expect(abandonClaimAt(moved, PERIOD)).toBe(T0 + HOUR + PERIOD);
    // A draw offer a day later (same ply) leaves the turn where it began; so does a settle (same game).
    const offered = timed(moved, { ...moved, drawOffer: 0 }, T0 + DAY_MS);
    expect(offered.turnStartedAt).toBe(iso(T0 + HOUR));
    expect(timed(offered, offered, T0 + 2 * DAY_MS).turnStartedAt).toBe(iso(T0 + HOUR));
    // A write that lowers the ply (a takeback) starts the turn anew.
    const back = timed(offered, { ...offered, ply: 0, toMove: 0, moves: [] }, T0 + 2 * DAY_MS);
    expect(abandonClaimAt(back, PERIOD)).toBe(T0 + 2 * DAY_MS + PERIOD);
  });

  it('is nothing for finished games and games with a time control', () => {
    const moved = timed(game(unlimited), afterMove(game(unlimited), T0 + HOUR, null), T0 + HOUR);
    expect([moved.status, moved.turnStartedAt, abandonClaimAt(moved, PERIOD)]).toEqual([
      'finished',
      undefined,
      null,
    ]);
    for (const tc of [
      { type: 'realtime', initialSeconds: 60, incrementSeconds: 0 },
      { type: 'correspondence', daysPerMove: 3 },
    ] as const) {
      const started = timed(game(tc), game(tc), T0);
      expect([started.turnStartedAt, abandonClaimAt(started, PERIOD)]).toEqual([undefined, null]);
    }
  });

  it('reads documents written before turnStartedAt: the last move, or the last write of a head', () => {
    const old = afterMove(game(unlimited), T0 + HOUR);
    expect(abandonClaimAt(old, PERIOD)).toBe(T0 + HOUR + PERIOD);
    const { moves: _moves, ...head } = { ...old, updatedAt: iso(T0 + 2 * HOUR) };
    expect(abandonClaimAt(head, PERIOD)).toBe(T0 + 2 * HOUR + PERIOD);
    const { moves: _none, ...fresh } = game(unlimited);
    expect(abandonClaimAt(fresh, PERIOD)).toBe(T0 + PERIOD);
  });
});
