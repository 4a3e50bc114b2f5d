import type { GameRecord } from '../../../src/engines/engine';
import { russianDraughts as engine } from '../../../src/engines/draughts';
import { playAll, state } from './helpers';

const START = 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8';

/** The canonical notation parseMove finds for `text`, or the error code. */
function read(fen: string, text: string): string {
  const s = state(fen);
  const parsed = engine.parseMove(s, text);
  return parsed.ok ? engine.formatMove(s, parsed.value) : parsed.error.code;
}

describe('russian draughts move notation', () => {
  it('reads a capture written from–to only when one legal sequence fits', () => {
    expect(read('W:Wh6:Bg7,c5,d2', 'h6:e1')).toBe('h6:f8:b4:e1');
    expect(read('W:WKd2:Bf6,c5,e5,e3', 'd2:f4:a3')).toBe('d2:f4:d6:a3');
  });

  it('answers AMBIGUOUS_MOVE with the full candidates when several sequences fit', () => {
    const s = state('W:WKd2:Bf6,c5,e5,e3');
    const parsed = engine.parseMove(s, 'd2:a3');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.code).toBe('AMBIGUOUS_MOVE');
      expect([...(parsed.error.candidates ?? [])].sort()).toEqual(['d2:f4:d6:a3', 'd2:g5:e7:a3']);
    }
  });

  it('prefers the exact path when a shorter capture is written in full', () => {
    expect(read('W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8', 'f8:b4')).toBe('f8:b4');
  });

  it('accepts lidraughts square numbers and x as separator, and answers in algebraic notation', () => {
    expect(read(START, '22-18')).toBe('c3-d4');
    expect(read('W:Wd4,a1:Bc3', 'd4xb2')).toBe('d4:b2');
    expect(read('W:Wh6:Bg7,c5,d2', '12x3x17x31')).toBe('h6:f8:b4:e1');
    expect(read('W:Wh6:Bg7,c5,d2', ' H6X  E1 '.replace(/\s/g, ''))).toBe('h6:f8:b4:e1');
  });

  it('tells malformed text from illegal moves', () => {
    expect(read(START, 'c3-c4')).toBe('INVALID_NOTATION');
    expect(read(START, 'c3')).toBe('INVALID_NOTATION');
    expect(read(START, '33-18')).toBe('INVALID_NOTATION');
    expect(read(START, 'c3-e5')).toBe('ILLEGAL_MOVE');
    expect(read('W:Wd4,a1:Bc3', 'a1-b2')).toBe('ILLEGAL_MOVE');
  });

  it('describes a move: captured squares, crowning and the squares visited', () => {
    const s = state('W:Wh6:Bg7,c5,d2');
    const move = engine.moves(s)[0];
    if (move === undefined) throw new Error('no move');
    expect(engine.describeMove?.(s, move)).toEqual({
      family: 'draughts',
      captured: ['d2', 'c5', 'g7'],
      promoted: true,
      path: ['h6', 'f8', 'b4', 'e1'],
    });
  });

  it('refuses moves after the game is over and moves that are not legal', () => {
    const over = state('W:Wa1:Bb2,c3');
    const start = engine.setup({});
    const first = engine.moves(start)[0];
    if (first === undefined) throw new Error('no move');
    const atEnd = engine.play(over, first);
    expect(!atEnd.ok && atEnd.error.code).toBe('GAME_OVER');
    const bogus = engine.play(start, { ...first, path: [31] });
    expect(!bogus.ok && bogus.error.code).toBe('ILLEGAL_MOVE');
  });
});

describe('russian draughts positions', () => {
  it('round-trips a position with draw counts', () => {
    const fen = 'B:WKa1,h2:Ba7,Kh8:D4,12,0,0,0';
    expect(engine.formatState(state(fen))).toBe(fen);
  });

  it('reads the older three-count field, each count going to the rule whose condition holds', () => {
    // 4 pieces, kings on both sides: the balance count is the 7.2.6 count.
    expect(engine.formatState(state('B:WKa1,h2:Ba7,Kh8:D4,12,0'))).toBe('B:WKa1,h2:Ba7,Kh8:D4,12,0,0,0');
    // Three kings against a lone king off the long diagonal: 7.2.4 and 7.2.6 (4 pieces).
    expect(engine.formatState(state('W:WKg1:BKb8,Kd8,Kf8:D3,7,0'))).toBe('W:WKg1:BKb8,Kd8,Kf8:D3,7,7,0,0');
    // Two kings against one: the lone count is the 7.2.8 count.
    expect(engine.formatState(state('W:WKg1:BKb8,Kh8:D2,0,5'))).toBe('W:WKg1:BKb8,Kh8:D2,0,0,0,5');
  });

  it('reads plain FEN as all counters zero, and writes no counter field then', () => {
    const s = state('W:WKa1,h2:BKh8,a7');
    expect(engine.formatState(s)).toBe('W:WKa1,h2:Ba7,Kh8');
  });

  it('writes the counters once king moves have been made', () => {
    const s = playAll(state('W:WKc1,h2:BKh8,a7'), ['c1-d2', 'h8-g7']);
    expect(engine.formatState(s)).toBe('W:WKd2,h2:Ba7,Kg7:D2,2,0,0,0');
  });

  it('reads lidraughts numeric FEN with ranges and H/F fields', () => {
    expect(
      engine.formatState(state('W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12:H0:F1')),
    ).toBe(START);
    expect(engine.formatState(state('W:W21-32:B1-12'))).toBe(START);
    expect(engine.formatState(state('B:WK29:B4'))).toBe('B:WKa1:Bh8');
  });

  it('rejects malformed and impossible positions without throwing', () => {
    const code = (text: string) => {
      const parsed = engine.parseState(text);
      return parsed.ok ? 'ok' : parsed.error.code;
    };
    expect(code('')).toBe('INVALID_NOTATION');
    expect(code('X:Wa1:Bh8')).toBe('INVALID_NOTATION');
    expect(code('W:Wa1')).toBe('INVALID_NOTATION');
    expect(code('W:Wi2:Bh8')).toBe('INVALID_NOTATION');
    expect(code('W:Wa2:Bh8')).toBe('INVALID_POSITION');
    expect(code('W:Wa1:Bh8:Bb8')).toBe('INVALID_NOTATION');
    expect(code('W:Wa1:Bh8:D1,2')).toBe('INVALID_NOTATION');
    expect(code('W:Wa1:Ba1')).toBe('INVALID_POSITION');
    expect(code('W:Wa1,a1:Bh8')).toBe('INVALID_POSITION');
    expect(code('W:Wb8:Ba7')).toBe('INVALID_POSITION');
    expect(code('W:Wa1:Bc1')).toBe('INVALID_POSITION');
    expect(code('W:W:Bh8')).toBe('ok');
  });

  it('draws the board for clients', () => {
    expect(engine.board(state('W:Wa1,Kc3:Bh8'))).toEqual({
      type: 'grid',
      files: 8,
      ranks: 8,
      pieces: [
        { square: 'a1', side: 0, piece: 'man' },
        { square: 'c3', side: 0, piece: 'king' },
        { square: 'h8', side: 1, piece: 'man' },
      ],
      zones: [],
    });
  });
});

describe('russian draughts PDN export', () => {
  const record: GameRecord = {
    id: 'g1',
    options: {},
    first: 0,
    moves: ['c3-d4', 'f6-e5', '18x11', 'g7:e5'],
    players: ['alice', 'bob'],
    startedAt: '2026-11-23T08:30:00.000Z',
  };

  it('writes tags and numbered moves in canonical notation', () => {
    expect(engine.exportRecord?.(record)).toBe(
      [
        '[Event "Boardhost game g1"]',
        '[Site "Boardhost"]',
        '[Date "2026.11.23"]',
        '[White "alice"]',
        '[Black "bob"]',
        '[Result "*"]',
        '[GameType "25"]',
        '',
        '1. c3-d4 f6-e5 2. d4:f6 g7:e5 *',
        '',
      ].join('\n'),
    );
  });

  it('adds the start FEN and an ellipsis when Black moves first, and the result', () => {
    const text = engine.exportRecord?.({
      ...record,
      first: 1,
      moves: ['f6-g5', 'c3-d4'],
      outcome: { winner: 1, reason: 'resignation' },
    });
    expect(text).toContain(`[FEN "B:${START.slice(2)}"]`);
    expect(text).toContain('[Result "0-2"]');
    expect(text).toContain('\n1... f6-g5 2. c3-d4 0-2\n');
  });
});
