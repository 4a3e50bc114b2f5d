// The contract every engine must pass. Each engine's test file calls `describeEngineContract`.
import fc from 'fast-check';
import type { Engine } from '../../src/engines/engine';
import { perft } from '../../src/engines/perft';
import type { Options, Side } from '../../src/engines/types';

/** Recursively freeze a value so that any mutation throws in strict mode. */
export function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  if (ArrayBuffer.isView(value)) return value; // typed arrays cannot be frozen; checked by copy instead
  for (const key of Reflect.ownKeys(value as object)) {
    deepFreeze((value as Record<string | symbol, unknown>)[key], seen);
  }
  return Object.freeze(value);
}

/** A JSON-ish snapshot that includes typed-array contents, for before/after comparison. */
function snapshot(value: unknown, seen = new Set<unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[cycle]';
  seen.add(value);
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  if (value instanceof Map) return [...value.entries()].map((e) => snapshot(e, seen));
  if (value instanceof Set) return [...value.values()].map((e) => snapshot(e, seen));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = snapshot((value as Record<string, unknown>)[key], seen);
  return out;
}

export interface ContractOptions {
  /** Option sets to exercise (each parsed with engine.parseOptions). */
  readonly optionSets: readonly unknown[];
  /** Random playouts per option set. */
  readonly playouts?: number;
  /** Ply cap per playout; a playout that reaches it without an outcome fails. */
  readonly maxPlies?: number;
}

/** Play a seeded random game; returns the states visited (start included). */
export function randomPlayout<S, M>(
  engine: Engine<S, M>,
  options: Options,
  seed: number,
  maxPlies: number,
  first: Side = 0,
): S[] {
  let rng = seed >>> 0 || 1;
  const next = () => {
    // xorshift32: deterministic, so a failing seed can be replayed
    rng ^= rng << 13;
    rng ^= rng >>> 17;
    rng ^= rng << 5;
    return (rng >>> 0) / 0x100000000;
  };
  const states: S[] = [engine.setup(options, first)];
  for (let ply = 0; ply < maxPlies; ply++) {
    const state = states[states.length - 1] as S;
    const moves = engine.moves(state);
    if (moves.length === 0) break;
    const move = moves[Math.floor(next() * moves.length)] as M;
    const played = engine.play(state, move);
    if (!played.ok) throw new Error(`listed move ${engine.formatMove(state, move)} did not play`);
    states.push(played.value);
  }
  return states;
}

export function describeEngineContract<S, M>(engine: Engine<S, M>, contract: ContractOptions): void {
  const playouts = contract.playouts ?? 20;
  const maxPlies = contract.maxPlies ?? 2000;

  describe(`${engine.kind} engine contract`, () => {
    const optionSets = contract.optionSets.map((raw) => {
      const parsed = engine.parseOptions(raw);
      if (!parsed.ok) throw new Error(`option set ${JSON.stringify(raw)} rejected: ${parsed.error.message}`);
      return parsed.value;
    });

    it('has a kind, a rules version and two seat names', () => {
      expect(engine.rulesVersion).toMatch(/\S/);
      expect(engine.seatNames).toHaveLength(2);
      expect(engine.seatNames[0]).not.toEqual(engine.seatNames[1]);
    });

    it('rejects unknown option names with INVALID_OPTIONS', () => {
      const parsed = engine.parseOptions({ noSuchOption: 1 });
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error.code).toBe('INVALID_OPTIONS');
    });

    it('fills defaults for empty options', () => {
      const parsed = engine.parseOptions({});
      expect(parsed.ok).toBe(true);
      expect(engine.parseOptions(undefined).ok).toBe(true);
    });

    it.each(optionSets.map((o) => [JSON.stringify(o), o] as const))(
      'setup(%s) has legal moves, seat 0 to move unless told otherwise',
      (_label, options) => {
        const start = engine.setup(options);
        expect(engine.turn(start)).toBe(0);
        expect(engine.outcome(start)).toBeUndefined();
        expect(engine.moves(start).length).toBeGreaterThan(0);
        const flipped = engine.setup(options, 1);
        expect(engine.turn(flipped)).toBe(1);
      },
    );

    it('play never mutates its (deep-frozen) inputs', () => {
      for (const options of optionSets) {
        const states = randomPlayout(engine, options, 7, 60);
        for (const state of states) {
          const before = JSON.stringify(snapshot(state));
          const frozen = deepFreeze(state);
          for (const move of engine.moves(frozen)) {
            const result = engine.play(frozen, deepFreeze(move));
            expect(result.ok).toBe(true);
          }
          expect(JSON.stringify(snapshot(state))).toBe(before);
        }
      }
    });

    it('play and parseMove never throw on bad input and return error values', () => {
      const start = engine.setup(optionSets[0] as Options);
      const junk: unknown[] = [null, undefined, 0, -1, 99, 'x', {}, [], { from: 99 }, NaN];
      for (const bad of junk) {
        const result = engine.play(start, bad as M);
        expect(result.ok).toBe(false);
      }
      fc.assert(
        fc.property(fc.string(), (text) => {
          const parsed = engine.parseMove(start, text);
          if (parsed.ok) {
            // Anything that parses must be a legal move with a canonical spelling.
            const legal = engine.moves(start).map((m) => engine.formatMove(start, m));
            expect(legal).toContain(engine.formatMove(start, parsed.value));
          }
        }),
        { numRuns: 300 },
      );
      fc.assert(
        fc.property(fc.string(), (text) => {
          expect(() => engine.parseState(text)).not.toThrow();
        }),
        { numRuns: 300 },
      );
    });

    it('every listed move survives formatMove → parseMove, and every state formatState → parseState', () => {
      for (const options of optionSets) {
        for (let seed = 1; seed <= Math.max(3, playouts / 4); seed++) {
          const states = randomPlayout(engine, options, seed * 7919, maxPlies);
          for (const state of states) {
            const text = engine.formatState(state);
            const reparsed = engine.parseState(text, options);
            if (!reparsed.ok) throw new Error(`parseState failed on ${text}: ${reparsed.error.message}`);
            expect(engine.formatState(reparsed.value)).toBe(text);
            expect(engine.turn(reparsed.value)).toBe(engine.turn(state));
            const moves = engine.moves(state).map((m) => engine.formatMove(state, m));
            if (engine.outcome(state) === undefined) {
              // History-dependent endings aside, a reparsed position has the same legal moves.
              expect(engine.moves(reparsed.value).map((m) => engine.formatMove(reparsed.value, m))).toEqual(
                moves,
              );
            }
            for (const notation of moves) {
              const parsed = engine.parseMove(state, notation);
              if (!parsed.ok) throw new Error(`parseMove failed on ${notation} in ${text}`);
              expect(engine.formatMove(state, parsed.value)).toBe(notation);
            }
            expect(new Set(moves).size).toBe(moves.length);
          }
        }
      }
    });

    it('the fast perft path, if any, equals the generic perft', () => {
      if (!engine.perft) return;
      for (const options of optionSets) {
        for (const state of randomPlayout(engine, options, 11, 40).filter((_, i) => i % 8 === 0)) {
          expect(engine.perft(state, 3)).toBe(perft(engine, state, 3));
        }
      }
    });

    it('seeded random playouts end with an outcome, and a finished game has no moves', () => {
      for (const options of optionSets) {
        for (let seed = 1; seed <= playouts; seed++) {
          const states = randomPlayout(engine, options, seed, maxPlies, seed % 2 === 0 ? 0 : 1);
          const last = states[states.length - 1] as S;
          const outcome = engine.outcome(last);
          expect(outcome).toBeDefined();
          expect(engine.moves(last)).toEqual([]);
          const anyMove = engine.moves(states[0] as S)[0] as M;
          const after = engine.play(last, anyMove);
          expect(after.ok).toBe(false);
          if (!after.ok) expect(['GAME_OVER', 'ILLEGAL_MOVE']).toContain(after.error.code);
          expect(engine.board(last).type).toMatch(/^(mancala|grid)$/);
        }
      }
    });

    it('a finished position is written after the end-of-game rules and reads back as finished', () => {
      // docs/rules/README.md, "Finished games": the string still names a side (the one that would
      // move next); an end decided by the board alone reads back with the same outcome, and a
      // mancala board has been swept, so it reads back with the same result whatever ended it.
      const fromHistory = new Set(['threefold-repetition', 'move-limit']);
      for (const options of optionSets) {
        for (let seed = 1; seed <= playouts; seed++) {
          const states = randomPlayout(engine, options, seed * 31, maxPlies);
          const last = states[states.length - 1] as S;
          const outcome = engine.outcome(last);
          if (!outcome) throw new Error('a playout did not end');
          const text = engine.formatState(last);
          const reread = engine.parseState(text, options);
          if (!reread.ok) throw new Error(`${text}: ${reread.error.message}`);
          expect(engine.turn(reread.value)).toBe(engine.turn(last));
          const board = engine.board(last);
          const again = engine.outcome(reread.value);
          if (board.type === 'mancala') {
            // The swept board shows the result but not why the seeds were taken (a cannot-feed end
            // may read back as a majority): same winner and score.
            expect(again && { winner: again.winner, score: again.score }).toEqual({
              winner: outcome.winner,
              score: outcome.score,
            });
          } else if (!fromHistory.has(outcome.reason)) expect(again).toEqual(outcome);
          if (board.type === 'mancala' && outcome.reason !== 'majority') {
            expect([...board.houses[0], ...board.houses[1]].every((n) => n === 0)).toBe(true);
            expect([...board.stores]).toEqual(outcome.score);
          }
        }
      }
    });
  });
}
