// How the game page follows a game's stream: whole games and updates applied in version order,
// moves appended, a gap noticed; clocks and result texts.
import { appHarness, headOf } from '../support/app';
import { applyGame, applyUpdate, clockRemaining, formatClock, resultText } from '../../web/src/play/state';

describe('following a game stream', () => {
  const harness = appHarness();
  afterAll(() => harness.stopAll());

  it('appends each move, ignores what is older than what is shown, and notices a gap', async () => {
    const run = await harness.start('memory');
    const games = run.app.services.games;
    const { game: g0, seatTokens } = await games.createGame({ kind: 'kalah' });
    const as = (seat: number) => ({ credential: { token: seatTokens[seat]!.token } });
    const g1 = await games.submitMove(g0.id, '1', as(0));
    const g2 = await games.submitMove(g0.id, g1.legalMoves[0]!, as(g1.toMove!));
    const g3 = await games.submitMove(g0.id, g2.legalMoves[0]!, as(g2.toMove!));
    const update = (g: any) => ({ game: headOf(g), move: g.moves[g.moves.length - 1] }) as any;

    let shown = applyGame(undefined, g0 as any);
    const step1 = applyUpdate(shown, update(g1));
    expect(step1.stale).toBe(false);
    shown = step1.game!;
    expect(shown.moves.map((m) => m.notation)).toEqual(g1.moves.map((m) => m.notation));
    expect(shown.version).toBe(g1.version);
    // The answer to our own write came first: the stream's update for it changes nothing.
    shown = applyGame(shown, g2 as any);
    expect(applyUpdate(shown, update(g2)).game).toBe(shown);
    expect(applyUpdate(shown, update(g1)).game).toBe(shown);
    expect(applyGame(shown, g1 as any)).toBe(shown);
    // The next one is appended.
    const step3 = applyUpdate(shown, update(g3));
    expect(step3.game!.moves.map((m) => m.notation)).toEqual(g3.moves.map((m) => m.notation));
    // A move missing in between: reload.
    expect(applyUpdate(applyGame(undefined, g1 as any), update(g3)).stale).toBe(true);
  });

  it('counts the running clock down and formats it', () => {
    const since = Date.parse('2026-01-01T00:00:00Z');
    const clock = {
      remainingMs: [60_000, 30_000],
      runningSeat: 0,
      runningSince: new Date(since).toISOString(),
    };
    expect(clockRemaining(clock, since + 1500)).toEqual([58_500, 30_000]);
    expect(clockRemaining(clock, since + 120_000)).toEqual([0, 30_000]);
    expect(formatClock(58_500)).toBe('0:58');
    expect(formatClock(3_725_000)).toBe('1:02:05');
    expect(formatClock(9_950)).toBe('9.9');
  });

  it('says who won and why', () => {
    expect(resultText({ winner: 0, winnerName: 'white', reason: 'lion-captured', score: null })).toBe(
      'white wins: the lion was captured',
    );
    expect(resultText({ winner: null, winnerName: null, reason: 'row-empty', score: [5, 5] })).toBe(
      'Draw: a row is empty (5–5)',
    );
  });
});
