// Position checks, the monkey sequence limit and the move limit (docs/rules/congo.md: "Position
// strings", "Limits").
import { congoEngine as engine } from '../../../src/engines/congo';
import { readFen } from '../../../src/engines/congo/fen';
import { makeState } from '../../../src/engines/congo/state';
import { congoKind } from '../../../src/engines/congo/kind';
import { MONKEY_SEQUENCE_LIMIT } from '../../../src/engines/limits';
import { anyPosition, position } from './helpers';

const refusal = (fen: string): string => {
  const parsed = engine.parseState(fen);
  return parsed.ok ? 'accepted' : `${parsed.error.code}: ${parsed.error.message}`;
};

describe('Congo position checks', () => {
  it.each([
    ['3l3/7/7/7/7/7/2LL3 w', 'White has 2 lions; a side has at most 1'],
    ['3l3/7/7/7/7/1ZZ4/3L3 w', 'White has 2 zebras; a side has at most 1'],
    ['3l3/7/7/7/7/EEE4/3L3 w', 'White has 3 elephants; a side has at most 2'],
    ['3l3/7/7/7/7/1GG4/3L3 w', 'White has 2 giraffes'],
    ['3l3/cc5/7/7/7/7/3L3 w', 'Black has 2 crocodiles'],
    ['3l3/mm5/7/7/7/7/3L3 w', 'Black has 2 monkeys'],
    ['3l3/7/7/7/PPPPPPP/S6/3L3 w', 'White has 8 pawns and superpawns; a side has at most 7'],
    ['3l3/7/7/7/7/7/P2L3 w', 'white pawn on a1: a pawn never stands on its own first rank'],
    ['p2l3/7/7/7/7/7/3L3 w', 'black pawn on a7: a pawn never stands on its own first rank'],
    ['P2l3/7/7/7/7/7/3L3 w', 'pawn on a7 should have been promoted'],
    ['3l3/7/7/GM5/7/7/3L3 w', 'White has 2 pieces other than crocodiles in the river (a4, b4)'],
    ['3l3/7/7/5zp/7/7/3L3 w', 'Black has 2 pieces other than crocodiles in the river (f4, g4)'],
    ['3l3/7/7/7/7/7/7 b', 'White has just moved but has no lion'],
    ['3l3/7/7/7/7/7/L6 w', 'the white lion on a1 is outside its castle'],
    ['3l3/7/7/3L3/7/7/7 w', 'the white lion on d4 is outside its castle'],
  ])('refuses %s: %s', (fen, message) => {
    expect(refusal(fen).startsWith(`INVALID_POSITION: ${message}`)).toBe(true);
  });

  it('accepts a crocodile beside the one other piece a side may have in the river', () => {
    expect(refusal('3l3/7/7/CM3cp/7/7/3L3 w')).toBe('accepted');
  });

  it('accepts finished games: a captured lion, the winner in the other castle', () => {
    expect(engine.outcome(position('3L3/7/7/7/7/7/7 b'))).toEqual({ winner: 0, reason: 'lion-captured' });
    expect(engine.outcome(position('7/7/7/7/7/2M4/3L3 b'))).toEqual({ winner: 0, reason: 'lion-captured' });
  });
});

describe('Congo monkey sequence limit', () => {
  // The most monkey sequences found with legal material (search over placements of a monkey, the
  // 13 other black pieces — at most two of them in the river — and both lions): 7 276 of the
  // position's 7 286 moves.
  const WORST = '1e1e1g1/mppplp1/1pMp1p1/3cz2/7/3L3/7 w';
  // Not legal material: 31 black pieces round the monkey. The old engine did not list its moves
  // within two minutes; parseState now refuses it on the piece count.
  const EXPLOSION = '1s1s1s1/ssslsss/1s1s1s1/sssssss/1s1s1s1/sssLsss/Ms1s1s1 w';

  it('lists the worst legal position within 100 ms: parse, list and write every move', () => {
    const answer = () => {
      const started = process.hrtime.bigint();
      const state = position(WORST);
      const moves = engine.moves(state).map((m) => engine.formatMove(state, m));
      return { ms: Number(process.hrtime.bigint() - started) / 1e6, moves };
    };
    answer(); // compile the code paths once
    const runs = [answer(), answer(), answer(), answer(), answer()];
    expect(runs[0]?.moves).toHaveLength(7286);
    expect(Math.min(...runs.map((r) => r.ms))).toBeLessThan(100);
  });

  it('refuses a crafted position on its material, at once', () => {
    expect(refusal(EXPLOSION)).toBe(
      'INVALID_POSITION: Black has 31 pawns and superpawns; a side has at most 7',
    );
  });

  it('stops generating at the limit, and a position beyond it ends the game (never in real play)', () => {
    const beyond = anyPosition(EXPLOSION);
    const started = Date.now();
    expect(engine.outcome(beyond)).toEqual({ reason: 'move-limit' });
    expect(engine.moves(beyond)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(engine.perft?.(beyond, 1)).toBe(0);
    expect(MONKEY_SEQUENCE_LIMIT).toBeGreaterThan(2 * 7276);
  });
});

describe('Congo move limit (house rule)', () => {
  const near = (fen: string, ply: number) => {
    const read = readFen(fen);
    if (!read.ok) throw new Error(read.error.message);
    return makeState(read.value.board, read.value.side, undefined, ply);
  };

  it(`draws the game when ply ${congoKind.moveLimit} is reached`, () => {
    const s = near('gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w', congoKind.moveLimit - 1);
    expect(engine.outcome(s)).toBeUndefined();
    const move = engine.parseMove(s, 'c2-c3');
    if (!move.ok) throw new Error(move.error.message);
    const next = engine.play(s, move.value);
    if (!next.ok) throw new Error(next.error.message);
    expect(engine.outcome(next.value)).toEqual({ reason: 'move-limit' });
    expect(engine.moves(next.value)).toEqual([]);
    expect(engine.perft?.(s, 1)).toBe(24);
    expect(engine.perft?.(s, 2)).toBe(0);
  });

  it('lets the rules end the game first: a lion captured on the last ply wins', () => {
    const s = near('3l3/7/7/7/7/7/3L3 w', congoKind.moveLimit - 1);
    const move = engine.parseMove(s, 'd1-d7');
    if (!move.ok) throw new Error(move.error.message);
    const next = engine.play(s, move.value);
    expect(next.ok && engine.outcome(next.value)).toEqual({ winner: 0, reason: 'lion-captured' });
  });

  it('ends every random game by the limit', () => {
    let s = engine.setup({});
    let plies = 0;
    let seed = 12345;
    while (engine.outcome(s) === undefined) {
      const moves = engine.moves(s);
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const next = engine.play(s, moves[seed % moves.length]!);
      if (!next.ok) throw new Error(next.error.message);
      s = next.value;
      plies++;
    }
    expect(plies).toBeLessThanOrEqual(congoKind.moveLimit);
  });
});
