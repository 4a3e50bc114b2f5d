// End of the game: lion captured by each route, no moves, bare lions, threefold repetition.
import { congoEngine as engine } from '../../../src/engines/congo';
import { perft } from '../../../src/engines/perft';
import { diagram, legal, play, position } from './helpers';

describe('Congo end of game', () => {
  it('a piece stepping onto the lion wins the game', () => {
    const start = diagram(`
      . . . l . . .
      . . . . C . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      . . . L . . .`);
    const end = play(start, 'e6-d7');
    expect(engine.outcome(end)).toEqual({ winner: 0, reason: 'lion-captured' });
    expect(engine.moves(end)).toEqual([]);
  });

  it('the facing-lions capture along an open file wins the game', () => {
    const end = play(position('3l3/7/7/7/7/7/3L3 w'), 'd1-d7');
    expect(engine.formatState(end)).toBe('3L3/7/7/7/7/7/7 b');
    expect(engine.outcome(end)).toEqual({ winner: 0, reason: 'lion-captured' });
  });

  it('Black wins by the facing-lions capture on the e5–c3 diagonal', () => {
    const end = play(position('7/7/4l2/7/2L4/7/E6 b'), 'e5-c3');
    expect(engine.outcome(end)).toEqual({ winner: 1, reason: 'lion-captured' });
  });

  it('a monkey jump over the lion wins the game and ends the sequence there', () => {
    const start = position('7/5p1/3l3/2M4/7/3P3/3L3 w');
    expect(legal(start)).not.toContain('c4-e6-g6');
    const end = play(start, 'c4-e6');
    expect(engine.formatState(end)).toBe('7/4Mp1/7/7/7/3P3/3L3 b');
    expect(engine.outcome(end)).toEqual({ winner: 0, reason: 'lion-captured' });
  });

  it('a finished game refuses further moves with GAME_OVER', () => {
    const end = play(position('3l3/7/7/7/7/7/3L3 w'), 'd1-d7');
    const result = engine.play(end, { path: [45, 44] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('GAME_OVER');
    const parsed = engine.parseMove(end, 'd7-d6');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe('GAME_OVER');
  });

  it('the side to move loses when it has no legal move', () => {
    // A full board: monkeys cannot step or land anywhere, the lion is boxed in by its own monkeys
    // (not a position of a real game: a side has one monkey; read without the position checks).
    const boxed = diagram(
      `
      g g g l g g g
      g g g g g g g
      g g g g g g g
      g g g g g g g
      g g M M M g g
      g g M M M g g
      g g M L M g g`,
      'w',
      false,
    );
    expect(engine.moves(boxed)).toEqual([]);
    expect(engine.outcome(boxed)).toEqual({ winner: 1, reason: 'no-moves' });
  });

  it('bare lions that cannot capture each other are a draw', () => {
    const bare = position('3l3/7/7/7/7/7/2L4 w');
    expect(engine.outcome(bare)).toEqual({ reason: 'bare-lions' });
    expect(engine.moves(bare)).toEqual([]);
  });

  it('bare lions facing each other are not a draw: the side to move may capture', () => {
    const facing = position('3l3/7/7/7/7/7/3L3 w');
    expect(engine.outcome(facing)).toBeUndefined();
    expect(legal(facing)).toContain('d1-d7');
    // Stepping aside instead leaves two bare lions that cannot meet: a draw.
    expect(engine.outcome(play(facing, 'd1-c1'))).toEqual({ reason: 'bare-lions' });
  });

  it('capturing the last other piece leaves bare lions and a draw', () => {
    const end = play(position('3l3/7/7/7/7/2p4/3L3 w'), 'd1-c2');
    expect(engine.formatState(end)).toBe('3l3/7/7/7/7/2L4/7 b');
    expect(engine.outcome(end)).toEqual({ reason: 'bare-lions' });
  });

  describe('threefold repetition (house rule)', () => {
    const shuffle = ['g1-f3', 'g7-f5', 'f3-g1', 'f5-g7'];

    it('the third occurrence of a position with the same side to move is a draw', () => {
      const start = engine.setup({});
      const twice = play(start, ...shuffle);
      expect(engine.formatState(twice)).toBe(engine.formatState(start));
      expect(engine.outcome(twice)).toBeUndefined();
      const thrice = play(twice, ...shuffle);
      expect(engine.outcome(thrice)).toEqual({ reason: 'threefold-repetition' });
      expect(engine.moves(thrice)).toEqual([]);
    });

    it('positions recurring with the other side to move do not count', () => {
      // Black moves first here, so the start position recurs with Black to move only.
      const start = engine.setup({}, 1);
      const played = play(start, 'g7-f5', 'g1-f3', 'f5-g7', 'f3-g1', 'g7-f5', 'g1-f3', 'f5-g7');
      expect(engine.outcome(played)).toBeUndefined();
      expect(engine.outcome(play(played, 'f3-g1'))).toEqual({ reason: 'threefold-repetition' });
    });

    it('counts positions, not routes: different moves back to the same position repeat it', () => {
      const start = position('3l3/7/7/7/7/7/3L2Z w');
      const twice = play(start, 'g1-f3', 'd7-d6', 'f3-g1', 'd6-d7');
      expect(engine.outcome(twice)).toBeUndefined();
      expect(engine.outcome(play(twice, 'g1-e2', 'd7-c7', 'e2-g1', 'c7-d7'))).toEqual({
        reason: 'threefold-repetition',
      });
    });

    it('a reparsed position starts with an empty history', () => {
      const thrice = play(engine.setup({}), ...shuffle, ...shuffle);
      const reparsed = engine.parseState(engine.formatState(thrice));
      expect(reparsed.ok && engine.outcome(reparsed.value)).toBeUndefined();
    });

    it('the fast perft stops at a repetition exactly like the generic perft', () => {
      const nearly = play(engine.setup({}), ...shuffle, 'g1-f3', 'g7-f5', 'f3-g1');
      // f5-g7 would repeat the start a third time: that child has no moves.
      expect(engine.perft?.(nearly, 2)).toBe(perft(engine, nearly, 2));
      const full = engine.parseState(engine.formatState(nearly));
      expect(full.ok && perft(engine, full.value, 2)).toBeGreaterThan(perft(engine, nearly, 2));
      const small = play(position('3l3/7/7/7/7/3Z3/3L3 w'), 'd2-c4', 'd7-c6', 'c4-d2', 'c6-d7');
      for (let depth = 1; depth <= 5; depth++)
        expect(engine.perft?.(small, depth)).toBe(perft(engine, small, depth));
      const fresh = position(engine.formatState(small));
      expect(engine.perft?.(fresh, 5)).toBeGreaterThan(engine.perft?.(small, 5) ?? Infinity);
    });
  });
});
