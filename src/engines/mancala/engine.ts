// One Engine implementation for every mancala game; each game module supplies only its data.
import type { Engine } from '../engine';
import { err, ok, type EngineError, type GameKind, type Options, type Result, type Side } from '../types';
import { mancalaPerft } from './fast-perft';
import { formatDiagram, parseDiagram, pitName, type Diagram, type NotationStyle } from './notation';
import { parseOptionsWith, type OptionSpec } from './options';
import { exportMancalaRecord } from './record';
import { compileRules, type RuleRecord, type Ruleset } from './rules';
import { legalMask } from './sow';
import { makeState, step, type MancalaState } from './state';

/** A mancala game as data: its options, notation and how options become a rule record. */
export interface MancalaGame {
  readonly kind: GameKind;
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

const seedsSpec = (game: MancalaGame) => {
  const spec = game.options.find((o) => o.name === 'seeds');
  return spec?.type === 'int' ? spec : undefined;
};

/**
 * Reads a position string for `game`. With `check`, the position must be one the options allow
 * (docs/rules, "Position strings"): as many houses a side as the options say, and exactly the seeds
 * the game starts with, 2 × houses × seeds, in houses and stores together. Without options, the
 * houses and seeds per house are read from the position (the total must then be a whole number of
 * seeds per house in the option's range). A finished position is returned after the end-of-game
 * rules (see makeState).
 */
export function readPosition(
  game: MancalaGame,
  text: string,
  options: Options | undefined,
  check: boolean,
): Result<MancalaState, EngineError> {
  const opts = parseOptionsWith(game.kind, game.options, options);
  if (!opts.ok) return opts;
  const read = parseDiagram(text, game.notation);
  if (!read.ok) return read;
  const { rows, stores, toMove } = read.value;
  const [lo, hi] = game.houseRange;
  const h = rows[0].length;
  if (rows[1].length !== h) {
    return error(
      'INVALID_POSITION',
      `South has ${h} houses and North ${rows[1].length}; both rows have the same number`,
    );
  }
  if (h < lo || h > hi) {
    return error(
      'INVALID_POSITION',
      `${game.kind} has ${lo === hi ? lo : `${lo} to ${hi}`} houses per side, not ${h}`,
    );
  }
  const pits = new Uint16Array([...rows[0], stores[0], ...rows[1], stores[1]]);
  const total = pits.reduce((a, b) => a + b, 0);
  let chosen: Options = opts.value;
  if (check && options !== undefined) {
    if (opts.value.houses !== undefined && Number(opts.value.houses) !== h) {
      return error(
        'INVALID_POSITION',
        `the position has ${h} houses a side but the options say ${String(opts.value.houses)}`,
      );
    }
    const seeds = Number(opts.value.seeds);
    if (total !== 2 * h * seeds) {
      return error(
        'INVALID_POSITION',
        `the position holds ${total} seeds, but ${game.kind} with ${h} houses of ${seeds} seeds holds ${2 * h * seeds} ` +
          '(houses and stores together; give the seeds option for another number)',
      );
    }
  } else if (check) {
    const spec = seedsSpec(game);
    const seeds = total / (2 * h);
    if (!Number.isInteger(seeds) || (spec && (seeds < spec.min || seeds > spec.max))) {
      const range = spec ? `${spec.min} to ${spec.max}` : 'a whole number of';
      return error(
        'INVALID_POSITION',
        `the position holds ${total} seeds; a ${game.kind} game holds 2 × ${h} houses × ${range} seeds`,
      );
    }
    chosen = { ...opts.value, ...(opts.value.houses !== undefined ? { houses: h } : {}), seeds };
  }
  const rules: Ruleset = compileRules(game.rules(chosen, h));
  return ok(makeState(rules, pits, toMove));
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
    return readPosition(game, text, options, true);
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

    stateBytes(state) {
      // The state object and its pits, plus each position of the repetition history (Oware).
      let bytes = 150 + state.pits.byteLength;
      for (let node = state.history; node; node = node.prev) bytes += 100 + node.pits.byteLength;
      return bytes;
    },

    perft: mancalaPerft,

    describeMove(state, move) {
      if (state.outcome || !isLegal(state, move)) return { family: 'mancala', legal: false };
      const trace = { pits: [] as number[], relays: [] as number[], captures: [] as number[] };
      const result = step(state, move - 1, trace);
      const name = (i: number) => pitName(state.rules.houses, i);
      return {
        family: 'mancala',
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
