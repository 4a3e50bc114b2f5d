// Position strings of the mancala games: the checks parseState makes (docs/rules, "Position
// strings"), finished positions shown after the end-of-game rules, and the move limit.
import { kindOf } from '../../../src/engines/kinds';
import { kalahKind } from '../../../src/engines/mancala/kalah';
import { congkakEngine } from '../../../src/engines/mancala/congkak';
import { kalahEngine, KALAH } from '../../../src/engines/mancala/kalah';
import { owareEngine } from '../../../src/engines/mancala/oware';
import { compileRules } from '../../../src/engines/mancala/rules';
import { makeState, type MancalaState } from '../../../src/engines/mancala/state';
import type { Engine } from '../../../src/engines/engine';

type MancalaEngine = Engine<MancalaState, number>;

function read(engine: MancalaEngine, text: string, options?: Record<string, unknown>) {
  const parsedOptions = options === undefined ? undefined : engine.parseOptions(options);
  if (parsedOptions && !parsedOptions.ok) throw new Error(parsedOptions.error.message);
  return engine.parseState(text, parsedOptions?.value);
}

const refusal = (engine: MancalaEngine, text: string, options?: Record<string, unknown>) => {
  const parsed = read(engine, text, options);
  return parsed.ok ? 'accepted' : `${parsed.error.code}: ${parsed.error.message}`;
};

describe('mancala position checks', () => {
  it.each([
    [
      kalahEngine,
      '4,4,4,4,4,4/0/4,4,4,4,4,3/0 S',
      {},
      'the position holds 47 seeds, but kalah with 6 houses of 4 seeds holds 48',
    ],
    [kalahEngine, '4,4,4,4,4/0/4,4,4,4,4/0 S', {}, 'the position has 5 houses a side but the options say 6'],
    [kalahEngine, '4,4,4,4,4,4/0/4,4,4,4,4/0 S', {}, 'South has 6 houses and North 5'],
    [kalahEngine, '4,4,4,4,4,4,4/0/4,4,4,4,4,4,4/0 S', undefined, 'kalah has 1 to 6 houses per side, not 7'],
    [
      kalahEngine,
      '4,4,4,4,4,4/0/4,4,4,4,4,4/3 S',
      undefined,
      'the position holds 51 seeds; a kalah game holds 2 × 6 houses × 1 to 6 seeds',
    ],
    [
      owareEngine,
      '4,4,4,4,4,4/4,4,4,4,4,4 stores 30-0 S',
      {},
      'the position holds 78 seeds, but oware with 6 houses of 4 seeds holds 48',
    ],
    [
      owareEngine,
      '2,2,2,2,2,2/2,2,2,2,2,2 stores 0-0 S',
      undefined,
      'a oware game holds 2 × 6 houses × 4 to 6 seeds',
    ],
    [
      owareEngine,
      '5,5,5,5,5,5/5,5,5,5,5,5 stores 0-0 S',
      {},
      'holds 60 seeds, but oware with 6 houses of 4 seeds holds 48 (houses and stores together; give the seeds option',
    ],
    [congkakEngine, '4,4,4,4/0/4,4,4,4/0 S', undefined, 'congkak has 5 to 9 houses per side, not 4'],
    [
      congkakEngine,
      '7,7,7,7,7,7,7/0/7,7,7,7,7,7,7/0 S',
      { houses: 6 },
      'the position has 7 houses a side but the options say 6',
    ],
    [
      congkakEngine,
      '5,5,5,5,5/0/5,5,5,5,5/1 S',
      { houses: 5 },
      'holds 51 seeds, but congkak with 5 houses of 5 seeds holds 50',
    ],
  ] as Array<[MancalaEngine, string, Record<string, unknown> | undefined, string]>)(
    '%#: refuses %s (options %j): %s',
    (engine, text, options, message) => {
      expect(refusal(engine, text, options)).toMatch(/^INVALID_POSITION: /);
      expect(refusal(engine, text, options)).toContain(message);
    },
  );

  it('accepts a position holding the seeds its options give', () => {
    expect(refusal(kalahEngine, '4,4,4,4,4,4/0/4,4,4,4,4,4/0 S', {})).toBe('accepted');
    expect(refusal(kalahEngine, '0,9,0,0,2,1/20/3,0,5,1,0,0/7 N', { seeds: 4 })).toBe('accepted');
    expect(refusal(owareEngine, '5,5,5,5,5,5/5,5,5,5,5,5 stores 0-0 S', { seeds: 5 })).toBe('accepted');
    expect(refusal(congkakEngine, '5,5,5,5,5/0/5,5,5,5,5/0 S', { houses: 5 })).toBe('accepted');
    expect(refusal(congkakEngine, '3,3,3,3,3,3,3/0/3,3,3,3,3,3,3/0 N', { seeds: 3 })).toBe('accepted');
  });

  it('without options reads the houses and the seeds per house from the position', () => {
    const five = read(kalahEngine, '5,5,5,5,5,5/0/5,5,5,5,5,5/0 S');
    expect(five.ok && kalahEngine.perft?.(five.value, 3)).toBe(187); // Kalah(6,5), docs/rules/kalah.md
    const congkak = read(congkakEngine, '6,6,6,6,6,6/0/6,6,6,6,6,6/0 S');
    expect(congkak.ok && congkakEngine.perft?.(congkak.value, 3)).toBe(142); // 6 × 6
    const oware = read(owareEngine, '6,6,6,6,6,6/6,6,6,6,6,6 stores 0-0 S');
    expect(oware.ok && owareEngine.perft?.(oware.value, 3)).toBe(206); // 6 seeds
  });
});

describe('finished mancala positions', () => {
  it('are shown after the end-of-game sweep, also when read from text', () => {
    const kalah = read(kalahEngine, '0,0,0,0,0,0/20/1,2,0,0,0,0/25 S');
    if (!kalah.ok) throw new Error(kalah.error.message);
    expect(kalahEngine.formatState(kalah.value)).toBe('0,0,0,0,0,0/20/0,0,0,0,0,0/28 S');
    expect(kalahEngine.outcome(kalah.value)).toEqual({ winner: 1, reason: 'row-empty', score: [20, 28] });
    const oware = read(owareEngine, '1,1,0,0,0,0/0,0,0,0,0,0 stores 24-22 S');
    if (!oware.ok) throw new Error(oware.error.message);
    expect(owareEngine.formatState(oware.value)).toBe('0,0,0,0,0,0/0,0,0,0,0,0 stores 26-22 S');
    expect(owareEngine.outcome(oware.value)).toEqual({ winner: 0, reason: 'cannot-feed', score: [26, 22] });
  });

  it('keep the seeds on the board after an Oware majority (no rule moves them)', () => {
    const won = read(owareEngine, '0,0,0,0,0,0/0,3,0,0,0,4 stores 26-15 N');
    if (!won.ok) throw new Error(won.error.message);
    expect(owareEngine.formatState(won.value)).toBe('0,0,0,0,0,0/0,3,0,0,0,4 stores 26-15 N');
    expect(owareEngine.outcome(won.value)).toEqual({ winner: 0, reason: 'majority', score: [26, 15] });
  });
});

describe('mancala move limit (house rule)', () => {
  it(`ends the game at ply ${kalahKind.moveLimit}: each takes his own seeds, the larger total wins`, () => {
    const rules = compileRules(KALAH.rules({}));
    const pits = new Uint16Array([4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]);
    const late = makeState(rules, pits, 0, kalahKind.moveLimit - 1);
    expect(kalahEngine.outcome(late)).toBeUndefined();
    const played = kalahEngine.play(late, 4);
    if (!played.ok) throw new Error(played.error.message);
    expect(kalahEngine.outcome(played.value)).toEqual({ winner: 1, reason: 'move-limit', score: [23, 25] });
    expect(kalahEngine.formatState(played.value)).toBe('0,0,0,0,0,0/23/0,0,0,0,0,0/25 N');
    expect(kalahEngine.moves(played.value)).toEqual([]);
    expect(kalahEngine.perft?.(late, 1)).toBe(6);
    expect(kalahEngine.perft?.(late, 2)).toBe(0);
  });

  it.each([kalahEngine, owareEngine, congkakEngine])(
    'every random %p game ends within the limit',
    (engine) => {
      let state = engine.setup({});
      let seed = 7;
      let plies = 0;
      while (engine.outcome(state) === undefined) {
        const moves = engine.moves(state);
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const next = engine.play(state, moves[seed % moves.length] as number);
        if (!next.ok) throw new Error(next.error.message);
        state = next.value;
        plies++;
      }
      expect(plies).toBeLessThanOrEqual(kindOf(engine.kind)!.moveLimit);
    },
  );
});
