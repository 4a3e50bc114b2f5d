import { russianDraughts as engine } from '../../../src/engines/draughts';
import { fromAscii, moveList, pieces, playAll, state } from './helpers';

// Positions R1–R15 of docs/rules/russian-draughts.md (Test vectors), with their exact legal-move lists.
const VECTORS: Array<[string, string, string[]]> = [
  [
    'R1',
    'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8',
    ['a3-b4', 'c3-b4', 'c3-d4', 'e3-d4', 'e3-f4', 'g3-f4', 'g3-h4'],
  ],
  ['R2', 'W:WKd2:Bf6,c5,e5,e3', ['d2:f4:d6:a3', 'd2:f4:d6:b4', 'd2:g5:e7:a3', 'd2:g5:e7:b4']],
  ['R3', 'W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8', ['f8:b4', 'f8:h6:f4:d6:b4', 'h4:f6:d4:b6']],
  ['R5', 'W:Wh6:Bg7,c5,d2', ['h6:f8:b4:e1']],
  ['R6', 'W:Wd4,a1:Bc3', ['d4:b2']],
  ['R7', 'W:Wc3,h2:Bd4,f6,g3', ['c3:e5:g7', 'h2:f4']],
  ['R8', 'W:WKa1:Bc3,f4', ['a1:e5:g3', 'a1:e5:h2']],
  ['R9', 'W:WKa7:Bc5,b4,f4,g7', ['a7:d4:h8', 'a7:e3:h6:f8']],
  ['R10', 'W:Wc7,a1:Bh8', ['a1-b2', 'c7-b8', 'c7-d8']],
  ['R11', 'W:Wb6:Bc7,h8', ['b6:d8']],
  ['R13', 'W:Wa1:Bb2,c3', []],
  ['R14', 'B:Wd4:Bc5,e5', ['c5:e3', 'e5:c3']],
  ['R15', 'W:WKa1:Bh8', ['a1-b2', 'a1-c3', 'a1-d4', 'a1-e5', 'a1-f6', 'a1-g7']],
];

describe('russian draughts legal moves (vectors R1–R15)', () => {
  it.each(VECTORS)('%s %s has exactly the listed moves', (_id, fen, expected) => {
    expect(moveList(state(fen))).toEqual([...expected].sort());
  });

  it('R1 is the start position', () => {
    expect(engine.formatState(engine.setup({}))).toBe(VECTORS[0]?.[1]);
  });

  it('R4 lists the two circular captures ending on d2 once (drop convention; keep has 4 paths)', () => {
    const moves = moveList(state('W:WKd2:Bc5,e5,c3,e3'));
    expect(moves).toHaveLength(3);
    expect(moves).toContain('d2:b4:d6:f4:c1');
    expect(moves).toContain('d2:f4:d6:b4:e1');
    expect(moves.filter((m) => m === 'd2:b4:d6:f4:d2' || m === 'd2:f4:d6:b4:d2')).toHaveLength(1);
  });

  it('R13: a side without a legal move has lost', () => {
    expect(engine.outcome(state('W:Wa1:Bb2,c3'))).toEqual({ winner: 1, reason: 'no-moves' });
  });

  it('a side without pieces has lost', () => {
    const s = playAll(state('B:Wd4:Bc5,h8'), ['c5:e3']);
    expect(engine.outcome(s)).toEqual({ winner: 1, reason: 'no-moves' });
    expect(engine.moves(s)).toEqual([]);
  });
});

describe('russian draughts capture rules', () => {
  it('lets a man capture backwards and makes the capture compulsory', () => {
    const s = fromAscii(`
      . . . . . . . .
      . . . . . . . .
      . . . . . . . .
      . . . . . . . .
      . . . w . . . .
      . . b . . . . .
      . . . . . . . .
      w . . . . . . .`);
    expect(moveList(s)).toEqual(['d4:b2']);
  });

  it('crowns a man mid-capture and continues the capture as a flying king', () => {
    const s = playAll(state('W:Wh6:Bg7,c5,d2'), ['h6:f8:b4:e1']);
    expect(pieces(s)).toEqual([{ square: 'e1', side: 0, piece: 'king' }]);
    expect(engine.outcome(s)).toEqual({ winner: 0, reason: 'no-moves' });
  });

  it('keeps captured pieces on the board until the move ends (Turkish strike)', () => {
    // After a7:e3:h6:f8 the captured c5 still blocks the diagonal f8–a3, so the king stops on f8.
    const s = fromAscii(`
      . . . . . . . .
      W . . . . . b .
      . . . . . . . .
      . . b . . . . .
      . b . . . b . .
      . . . . . . . .
      . . . . . . . .
      . . . . . . . .`);
    expect(moveList(s)).toEqual(['a7:d4:h8', 'a7:e3:h6:f8']);
    const after = playAll(s, ['a7:e3:h6:f8']);
    expect(engine.formatState(after)).toBe('B:WKf8:Bb4');
  });

  it('forces a king to land where it can capture again', () => {
    const s = fromAscii(`
      . . . . . . . .
      . . . . . . . .
      . . . . . . . .
      . . . . . . . .
      . . . . . b . .
      . . b . . . . .
      . . . . . . . .
      W . . . . . . .`);
    expect(moveList(s)).toEqual(['a1:e5:g3', 'a1:e5:h2']);
  });

  it('lets a man that captures onto the last rank stop there as a king', () => {
    const s = playAll(state('W:Wb6:Bc7,h8'), ['b6:d8']);
    expect(engine.formatState(s)).toBe('B:WKd8:Bh8');
  });

  it('crowns a man by a quiet move to the last rank', () => {
    const s = playAll(state('W:Wc7,a1:Bh8'), ['c7-d8']);
    expect(pieces(s)).toContainEqual({ square: 'd8', side: 0, piece: 'king' });
  });
});

describe('russian draughts position checks', () => {
  const refusal = (fen: string) => {
    const parsed = engine.parseState(fen);
    return parsed.ok ? 'accepted' : `${parsed.error.code}: ${parsed.error.message}`;
  };

  it.each([
    ['W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,a5:Bh8', /White has 13 pieces; a side has at most 12/],
    ['W:Wa1:Bb2,d2,f2,h2,a3,c3,e3,g3,b4,d4,f4,h4,a5', /Black has 13 pieces/],
    ['W:Wa2:Bh8', /white piece on a2, a light square/],
    ['W:Wa1:BKb1', /black piece on b1, a light square/],
    ['W:Wa1:Bc1', /the black man on c1 stands on its promotion rank/],
    ['B:Wb8:Ba7', /the white man on b8 stands on its promotion rank/],
    ['W:Wa1:B', /Black has just moved but has no piece/],
    ['W:Wa1:Ba1', /a1 holds a white and a black piece/],
    [
      'W:Wa1,c1:Bh8:D0,0,0,0,3',
      /7\.2\.8 \(small material\) count is 3 but its material condition does not hold/,
    ],
    ['W:WKa1:Bh8,Kf8:D0,0,0,4,0', /7\.2\.7 \(long diagonal\) count is 4 but its material condition/],
    [
      'W:WKg1:BKb8,Kd8,Kf8:D0,0,31,0,0',
      /7\.2\.4 \(three kings against one\) count is 31, above its limit of 30/,
    ],
    ['W:WKg1:BKb8,Kd8:D0,0,0,0,11', /7\.2\.8 \(small material\) count is 11, above its limit of 10/],
    ['W:WKa1,c1:BKh8,f8:D0,61,0,0,0', /7\.2\.6 \(endgame\) count is 61, above its limit of 60/],
    [
      'W:WKa1:Bh8,f8:D2,0,0,0,0',
      /7\.2\.5 \(kings only\) count is 2 but the side that has just moved has no king/,
    ],
    ['B:WKa1:Bh8,f8,d8,b8:D3,0,0,0,0', /7\.2\.5 \(kings only\) count is 3 but only one side has kings/],
    ['W:Wa1:Bh8:D1,2,3,4,5,6', /bad count field/],
  ])('%s is refused: %s', (fen, message) => {
    expect(refusal(fen)).toMatch(/^INVALID_(POSITION|NOTATION): /);
    expect(refusal(fen)).toMatch(message);
  });

  it('accepts finished positions: the side to move without pieces, or a count at its limit', () => {
    const lost = state('W:W:Bh8');
    expect(engine.outcome(lost)).toEqual({ winner: 1, reason: 'no-moves' });
    const drawn = state('W:WKg1:BKb8,Kd8:D0,0,0,0,10');
    expect(engine.outcome(drawn)).toEqual({ reason: 'small-material' });
    expect(engine.formatState(drawn)).toBe('W:WKg1:BKb8,Kd8:D0,0,0,0,10');
  });
});
