// Move and position notation, the structured board, and the PGN-like record.
import { congoEngine as engine } from '../../../src/engines/congo';
import { START_FEN } from '../../../src/engines/congo/fen';
import { position } from './helpers';

const errorCode = (r: { ok: boolean; error?: { code: string } }): string | undefined =>
  r.ok ? undefined : r.error?.code;

describe('Congo notation', () => {
  const start = engine.setup({});

  it('starts from the standard position, White first unless Black is chosen', () => {
    expect(engine.formatState(start)).toBe(START_FEN);
    expect(engine.formatState(engine.setup({}, 1))).toBe('gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b');
  });

  it('reads moves with surrounding spaces and upper-case squares', () => {
    const move = engine.parseMove(start, '  C2-C3 ');
    expect(move.ok && engine.formatMove(start, move.value)).toBe('c2-c3');
  });

  it('tells malformed notation from well-formed illegal moves', () => {
    expect(errorCode(engine.parseMove(start, 'c2c3'))).toBe('INVALID_NOTATION');
    expect(errorCode(engine.parseMove(start, 'c2-h3'))).toBe('INVALID_NOTATION');
    expect(errorCode(engine.parseMove(start, 'c2-'))).toBe('INVALID_NOTATION');
    expect(errorCode(engine.parseMove(start, 'c2-c5'))).toBe('ILLEGAL_MOVE');
    expect(errorCode(engine.parseMove(start, 'c7-c6'))).toBe('ILLEGAL_MOVE'); // not White's piece
  });

  it('names monkey sequences by every landing square', () => {
    const state = position('3l3/7/7/7/3pp2/2Mp3/3L3 w');
    const move = engine.parseMove(state, 'c2-e4-e2-c2');
    expect(move.ok).toBe(true);
    expect(move.ok && engine.describeMove?.(state, move.value)).toEqual({
      family: 'congo',
      captured: ['d3', 'e3', 'd2'],
      drowned: [],
      promoted: false,
    });
    expect(errorCode(engine.parseMove(state, 'c2-e4-c2'))).toBe('ILLEGAL_MOVE');
  });

  it('rejects moves that are not moves of this position', () => {
    expect(errorCode(engine.play(start, { path: [10, 24] }))).toBe('ILLEGAL_MOVE'); // d2-d4
    expect(errorCode(engine.play(start, { path: ['d2', 'd3'] } as never))).toBe('ILLEGAL_MOVE');
  });

  it.each([
    ['', 'INVALID_NOTATION'],
    ['gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ', 'INVALID_NOTATION'],
    ['gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ x', 'INVALID_NOTATION'],
    ['gmelecz/ppppppp/7/7/PPPPPPP/GMELECZ w', 'INVALID_NOTATION'],
    ['gmelecz/pppppppp/7/7/7/PPPPPPP/GMELECZ w', 'INVALID_NOTATION'],
    ['gmelecz/ppppppp/6/7/7/PPPPPPP/GMELECZ w', 'INVALID_NOTATION'],
    ['gmelecx/ppppppp/7/7/7/PPPPPPP/GMELECZ w', 'INVALID_NOTATION'],
    ['3l3/7/7/7/7/7/2LL3 w', 'INVALID_POSITION'], // two white lions
    ['3l3/7/7/7/7/7/7 b', 'INVALID_POSITION'], // White just moved but has no lion
    ['7/7/7/7/7/7/3L3 w', 'INVALID_POSITION'], // Black just moved but has no lion
    ['3l3/7/7/7/7/7/L6 w', 'INVALID_POSITION'], // lion outside its castle
    ['3l3/7/7/3L3/7/7/7 w', 'INVALID_POSITION'], // lion in the river
    ['P2l3/7/7/7/7/7/3L3 w', 'INVALID_POSITION'], // unpromoted pawn on the last rank
  ])('rejects the position %j with %s', (text, code) => {
    expect(errorCode(engine.parseState(text))).toBe(code);
  });

  it('accepts a finished game: the capturing lion in the other castle, the other lion gone', () => {
    const parsed = engine.parseState('3L3/7/7/7/7/7/7 b');
    expect(parsed.ok && engine.outcome(parsed.value)).toEqual({ winner: 0, reason: 'lion-captured' });
  });
});

describe('Congo board view', () => {
  it('lists every piece with its side and name, plus river and castles', () => {
    const view = engine.board(position('3l3/7/7/2pC3/7/7/2S1L2 w'));
    expect(view).toEqual({
      type: 'grid',
      files: 7,
      ranks: 7,
      pieces: [
        { square: 'c1', side: 0, piece: 'superpawn' },
        { square: 'e1', side: 0, piece: 'lion' },
        { square: 'c4', side: 1, piece: 'pawn' },
        { square: 'd4', side: 0, piece: 'crocodile' },
        { square: 'd7', side: 1, piece: 'lion' },
      ],
      zones: [
        { name: 'river', squares: ['a4', 'b4', 'c4', 'd4', 'e4', 'f4', 'g4'] },
        { name: 'castle', side: 0, squares: ['c1', 'd1', 'e1', 'c2', 'd2', 'e2', 'c3', 'd3', 'e3'] },
        { name: 'castle', side: 1, squares: ['c5', 'd5', 'e5', 'c6', 'd6', 'e6', 'c7', 'd7', 'e7'] },
      ],
    });
  });

  it('names the seven kinds on the board at the start, 28 pieces', () => {
    const view = engine.board(engine.setup({}));
    if (view.type !== 'grid') throw new Error('Congo has a grid board');
    const names = new Set(view.pieces.map((p) => p.piece));
    expect([...names].sort()).toEqual([
      'crocodile',
      'elephant',
      'giraffe',
      'lion',
      'monkey',
      'pawn',
      'zebra',
    ]);
    expect(view.pieces).toHaveLength(28);
  });
});

describe('Congo game record', () => {
  const record = {
    id: 'g1',
    options: {},
    players: ['alice', 'bob'] as const,
    startedAt: '2026-11-23T10:00:00Z',
  };

  it('writes tags, numbered moves and the result', () => {
    const text = engine.exportRecord?.({
      ...record,
      first: 0,
      moves: ['d2-d3', 'd6-d5', 'd3-d4'],
      outcome: { winner: 0, reason: 'lion-captured' },
    });
    expect(text).toBe(
      [
        '[Event "Boardhost game g1"]',
        '[Site "Boardhost"]',
        '[Date "2026.11.23"]',
        '[White "alice"]',
        '[Black "bob"]',
        '[Variant "Congo"]',
        '[Result "1-0"]',
        '[Termination "lion-captured"]',
        '',
        '1. d2-d3 d6-d5 2. d3-d4 1-0',
        '',
      ].join('\n'),
    );
  });

  it('adds the start position and "1..." when Black moved first, "*" while the game goes on', () => {
    const text = engine.exportRecord?.({ ...record, first: 1, moves: ['d6-d5', 'd2-d3'] }) ?? '';
    expect(text).toContain('[FEN "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b"]');
    expect(text).toContain('[Result "*"]');
    expect(text).not.toContain('[Termination');
    expect(text.trim().split('\n').pop()).toBe('1... d6-d5 2. d2-d3 *');
  });

  it('writes a draw as 1/2-1/2', () => {
    const text = engine.exportRecord?.({ ...record, first: 0, moves: [], outcome: { reason: 'bare-lions' } });
    expect(text).toContain('[Result "1/2-1/2"]');
    expect(text).toContain('[Termination "bare-lions"]');
  });
});
