// One Engine implementation for every mancala game; each game module supplies only its data.
import type { Engine } from '../engine';
import { err, ok, type EngineError, type Options, type Result, type Side } from '../types';
import { mancalaPerft } from './fast-perft';
import { formatDiagram, parseDiagram, pitName, type Diagram, type NotationStyle } from './notation';
import { parseOptionsWith, type OptionSpec } from './options';
import { exportMancalaRecord } from './record';
import { compileRules, type MancalaKind, type RuleRecord, type Ruleset } from './rules';
import { legalMask } from './sow';
import { makeState, step, type MancalaState } from './state';

/** A mancala game as data: its options, notation and how options become a rule record. */
export interface MancalaGame {
  readonly kind: MancalaKind;
  readonly rulesVersion: string;
  readonly options: readonly OptionSpec[];
  readonly notation: NotationStyle;
  /** How many houses per side a position string may show. */
  readonly houseRange: readonly [number, number];
  /** The rules for parsed options; `houses`, when given, comes from a position string. */
  rules(options: Options, houses?: number): RuleRecord;
}

/** A move is the house number 1..h of the side to move. */
export type MancalaMove = number;

/** Upper bound on the seeds in a position string (pits are 16-bit). */
const MAX_SEEDS = 9999;

const error = (code: EngineError['code'], message: string): { ok: false; error: EngineError } =>
  err({ code, message });

function isLegal(state: MancalaState, move: unknown): move is number {
  if (typeof move !== 'number' || !Number.isInteger(move) || move < 1 || move > state.rules.houses)
    return false;
  return (legalMask(state.rules, state.pits, state.toMove) & (1 << (move - 1))) !== 0;
}

function illegal(state: MancalaState, move: unknown): { ok: false; error: EngineError } {
  const h = state.rules.houses;
  if (typeof move !== 'number' || !Number.isInteger(move) || move < 1 || move > h) {
    return error('ILLEGAL_MOVE', `a move is a house number from 1 to ${h}`);
  }
  const index = state.toMove * (h + 1) + move - 1;
  return error(
    'ILLEGAL_MOVE',
    state.pits[index] === 0 ? `house ${move} is empty` : `house ${move} does not give the opponent seeds`,
  );
}

function diagramOf(state: MancalaState): Diagram {
  const h = state.rules.houses;
  const p = Array.from(state.pits);
  return {
    rows: [p.slice(0, h), p.slice(h + 1, 2 * h + 1)],
    stores: [p[h] as number, p[2 * h + 1] as number],
    toMove: state.toMove,
  };
}

/** Build the Engine for one mancala game. */
export function makeMancalaEngine(game: MancalaGame): Engine<MancalaState, MancalaMove> {
  const parseOptions = (raw: unknown) => parseOptionsWith(game.kind, game.options, raw);
  const defaults = parseOptions({});
  const optionsOrDefaults = (options: unknown): Options => {
    const parsed = parseOptions(options);
    if (parsed.ok) return parsed.value;
    return defaults.ok ? defaults.value : {};
  };

  function parseState(text: string, options?: Options): Result<MancalaState, EngineError> {
    const opts = parseOptions(options);
    if (!opts.ok) return opts;
    const read = parseDiagram(text, game.notation);
    if (!read.ok) return read;
    const { rows, stores, toMove } = read.value;
    const [lo, hi] = game.houseRange;
    const h = rows[0].length;
    if (rows[1].length !== h)
      return error('INVALID_POSITION', 'both rows must have the same number of houses');
    if (h < lo || h > hi) {
      return error(
        'INVALID_POSITION',
        `${game.kind} has ${lo === hi ? lo : `${lo} to ${hi}`} houses per side`,
      );
    }
    const rules: Ruleset = compileRules(game.rules(opts.value, h));
    const pits = new Uint16Array([...rows[0], stores[0], ...rows[1], stores[1]]);
    const total = pits.reduce((a, b) => a + b, 0);
    const limit = game.kind === 'oware' ? 2 * h * rules.seeds : MAX_SEEDS;
    if (total > limit)
      return error('INVALID_POSITION', `the position holds ${total} seeds, more than ${limit}`);
    return ok(makeState(rules, pits, toMove));
  }

  const engine: Engine<MancalaState, MancalaMove> = {
    kind: game.kind,
    rulesVersion: game.rulesVersion,
    seatNames: ['south', 'north'],
    parseOptions,

    setup(options: Options, first: Side = 0): MancalaState {
      const rules = compileRules(game.rules(optionsOrDefaults(options)));
      const pits = new Uint16Array(rules.n);
      for (let i = 0; i < rules.houses; i++) {
        pits[i] = rules.seeds;
        pits[rules.houses + 1 + i] = rules.seeds;
      }
      return makeState(rules, pits, first === 1 ? 1 : 0);
    },

    turn: (state) => state.toMove,

    moves(state) {
      if (state.outcome) return [];
      const mask = legalMask(state.rules, state.pits, state.toMove);
      const moves: number[] = [];
      for (let i = 0; i < state.rules.houses; i++) if (mask & (1 << i)) moves.push(i + 1);
      return moves;
    },

    play(state, move) {
      if (state.outcome) return error('GAME_OVER', 'the game is over');
      if (!isLegal(state, move)) return illegal(state, move);
      return ok(step(state, move - 1).state);
    },

    outcome: (state) => state.outcome,

    parseMove(state, text) {
      if (typeof text !== 'string' || !/^\s*\d{1,2}\s*$/.test(text)) {
        return error('INVALID_NOTATION', 'a move is a house number, e.g. "3"');
      }
      if (state.outcome) return error('GAME_OVER', 'the game is over');
      const move = Number(text.trim());
      return isLegal(state, move) ? ok(move) : illegal(state, move);
    },

    formatMove: (_state, move) => String(move),
    parseState,
    formatState: (state) => formatDiagram(diagramOf(state), game.notation),

    board(state) {
      const d = diagramOf(state);
      return { type: 'mancala', houses: [d.rows[0], d.rows[1]], stores: d.stores };
    },

    perft: mancalaPerft,

    describeMove(state, move) {
      if (state.outcome || !isLegal(state, move)) return { legal: false };
      const trace = { pits: [] as number[], relays: [] as number[], captures: [] as number[] };
      const result = step(state, move - 1, trace);
      const name = (i: number) => pitName(state.rules.houses, i);
      return {
        legal: true,
        house: move,
        trace: trace.pits.map(name),
        relays: trace.relays.map(name),
        capturedFrom: trace.captures.map(name),
        captured: result.captured,
        extraMove: result.extraMove && !result.state.outcome,
        gameOver: result.state.outcome !== undefined,
      };
    },

    exportRecord: (record) => exportMancalaRecord(engine, record),
  };
  return engine;
}
