// Rules B11: every legal capture path is a legal move. The move list shows one path per outcome
// (origin, destination, captured pieces, crowning); parseMove accepts any other legal path or an
// unambiguous shorthand of one, and answers with the listed move.
import { russianDraughts as engine } from '../../../src/engines/draughts';
import { moveList, state } from './helpers';

/** The canonical notation parseMove reads `text` as, or the error code. */
function read(fen: string, text: string): string {
  const s = state(fen);
  const move = engine.parseMove(s, text);
  return move.ok ? engine.formatMove(s, move.value) : move.error.code;
}

// A man crowned on d8 mid-capture goes on as a king over e7 to f6, then round the loop
// e5-e3-g3-g5 either way back to f6 (and the anticlockwise way may also stop on g7 or h8).
const CROWN_LOOP = 'W:Wb6:Bc7,e7,e5,g5,e3,g3';
const CLOCKWISE = 'b6:d8:f6:h4:f2:d4:f6';
const ANTICLOCKWISE = 'b6:d8:f6:d4:f2:h4:f6';

describe('russian draughts: any legal capture path is accepted (B11)', () => {
  it('lists one path of the two loops that end alike', () => {
    const listed = moveList(state(CROWN_LOOP));
    expect(listed).toEqual([CLOCKWISE, 'b6:d8:f6:h4:f2:d4:g7', 'b6:d8:f6:h4:f2:d4:h8']);
    expect(listed).not.toContain(ANTICLOCKWISE);
  });

  it('accepts the unlisted loop and records it as the listed one', () => {
    expect(read(CROWN_LOOP, ANTICLOCKWISE)).toBe(CLOCKWISE);
    expect(read(CROWN_LOOP, CLOCKWISE)).toBe(CLOCKWISE);
    // Other separators and lidraughts numbers, as a bot with its own generator may write them.
    expect(read(CROWN_LOOP, 'b6xd8xf6xd4xf2xh4xf6')).toBe(CLOCKWISE);
    const s = state(CROWN_LOOP);
    const move = engine.parseMove(s, ANTICLOCKWISE);
    if (!move.ok) throw new Error(move.error.message);
    expect(engine.play(s, move.value).ok).toBe(true);
    expect(engine.describeMove?.(s, move.value)).toMatchObject({
      promoted: true,
      captured: ['e3', 'g3', 'e5', 'g5', 'c7', 'e7'],
    });
  });

  it('accepts a shorthand that fits only the unlisted loop', () => {
    // d4 before h4 is the anticlockwise order; the clockwise path visits h4 first.
    expect(read(CROWN_LOOP, 'b6:d4:h4:f6')).toBe(CLOCKWISE);
    expect(read(CROWN_LOOP, 'b6:f6')).toBe(CLOCKWISE);
  });

  it('still refuses paths that break the rules', () => {
    expect(read(CROWN_LOOP, 'b6:d8')).toBe('ILLEGAL_MOVE'); // must go on capturing
    expect(read(CROWN_LOOP, 'b6:d8:f6:d4:f2:h4')).toBe('ILLEGAL_MOVE'); // stops with g5 still to take
    expect(read(CROWN_LOOP, 'b6:d8:f6:d4:f2:h4:f6:d4')).toBe('ILLEGAL_MOVE'); // e5 taken twice
    // Landing restriction: after e5 the king must land on d4 (only there can it go on).
    expect(read(CROWN_LOOP, 'b6:d8:f6:c3:f2')).toBe('ILLEGAL_MOVE');
  });

  it('accepts a king path that lands further along before capturing straight on (B2)', () => {
    // The list generates the straight-on capture from the first landing square, d4; landing on e5
    // and then taking f6 is the same move.
    expect(moveList(state('W:WKa1:Bc3,f6'))).toEqual(['a1:d4:g7', 'a1:d4:h8']);
    expect(read('W:WKa1:Bc3,f6', 'a1:e5:g7')).toBe('a1:d4:g7');
    expect(read('W:WKa1:Bc3,f6', 'a1:e5:h8')).toBe('a1:d4:h8');
    expect(read('W:WKa1:Bc3,f6', 'a1:g7')).toBe('a1:d4:g7');
    expect(read('W:WKa1:Bc3,f6', 'a1:f6:g7')).toBe('ILLEGAL_MOVE'); // f6 is the piece, not a landing square
  });

  it('R4: either circle round d4 reads as the listed one', () => {
    const r4 = 'W:WKd2:Bc5,e5,c3,e3';
    const listed = moveList(state(r4)).filter((m) => m.endsWith(':d2'));
    expect(listed).toHaveLength(1);
    expect(read(r4, 'd2:b4:d6:f4:d2')).toBe(listed[0]);
    expect(read(r4, 'd2:f4:d6:b4:d2')).toBe(listed[0]);
  });
});
