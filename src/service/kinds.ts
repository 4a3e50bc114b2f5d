// What a client needs to know about each hosted kind before it creates a game: its seats, its
// options as a JSON Schema, a summary of its notation, and where its rules page is.
import type { AnyEngine } from '../engines/engine';
import { CONGKAK } from '../engines/mancala/congkak';
import { KALAH } from '../engines/mancala/kalah';
import type { OptionSpec } from '../engines/mancala/options';
import { OWARE } from '../engines/mancala/oware';
import type { BoardView, GameKind, Options, Side } from '../engines/types';
import { readPosition, type Start } from './start';

/** A JSON Schema (draft 2020-12) document, as plain JSON. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface KindView {
  readonly kind: GameKind;
  /** The game's name for people. */
  readonly name: string;
  /** Seat 0 first: what `first`, seats and records call the two sides. */
  readonly seatNames: readonly string[];
  /** The creation options as a JSON Schema; `defaults` is what `{}` becomes. */
  readonly options: JsonSchema;
  readonly defaults: Options;
  readonly notation: {
    /** How moves are written. */
    readonly moves: string;
    /** How positions (`position`, `initialPosition`, `position` on create) are written. */
    readonly position: string;
    /** The standard start position with the default options, seat 0 to move. */
    readonly start: string;
  };
  readonly rules: {
    /** The rules page in the repository. */
    readonly path: string;
    /** The same page served by this server (text/markdown). */
    readonly url: string;
  };
}

interface KindFacts {
  readonly name: string;
  readonly options: readonly OptionSpec[];
  readonly moves: string;
  readonly position: string;
}

// The option specs are the ones the mancala engines validate with (options.ts), so the schema
// cannot say something the engine does not; Congo and draughts take no options.
const FACTS: Readonly<Record<GameKind, KindFacts>> = {
  congo: {
    name: 'Congo',
    options: [],
    moves: 'the squares a piece visits, joined by "-": "c2-e4", a monkey\'s multiple capture "c2-e4-e2"',
    position:
      'Congo FEN: seven ranks from rank 7 to rank 1, digits for empty squares, upper case for White ' +
      '(G giraffe, M monkey, E elephant, L lion, C crocodile, Z zebra, P pawn, S superpawn), then w or b ' +
      'to move. Drowning needs no extra field: it follows from the pieces in the river (rank 4).',
  },
  'russian-draughts': {
    name: 'Russian draughts',
    options: [],
    moves: '"c3-d4"; captures "e3:g5:e7" (also "e3:e7" when only one capture matches); squares may be 1–32',
    position:
      'PDN FEN "W:Wa1,c1,Kd4:Bb8,d8" (side to move, White\'s pieces, Black\'s; K = king), with the draw ' +
      'counters in plies as an optional last field ":D<kings only>,<balance>,<lone king>"',
  },
  kalah: {
    name: 'Kalah',
    options: KALAH.options,
    moves: 'the house number of the side to move, 1…h in sowing order (house h is next to its store)',
    position:
      "\"4,4,4,4,4,4/0/4,4,4,4,4,4/0 S\": South's houses 1…h, South's store, North's houses 1…h, " +
      "North's store, then S or N to move",
  },
  oware: {
    name: 'Oware',
    options: OWARE.options,
    moves: 'the house number of the side to move, 1–6 in sowing order',
    position:
      '"4,4,4,4,4,4/4,4,4,4,4,4 stores 0-0 S": South\'s houses 1–6, North\'s houses 1–6, the captured ' +
      'seeds South-North, then S or N to move',
  },
  congkak: {
    name: 'Congkak',
    options: CONGKAK.options,
    moves: 'the house number of the side to move, 1…h in sowing order',
    position: 'as Kalah: "7,7,7,7,7,7,7/0/7,7,7,7,7,7,7/0 S"',
  },
};

/** The JSON Schema of a kind's options, from the specs its engine validates with. */
export function optionsSchema(specs: readonly OptionSpec[]): JsonSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const spec of specs) {
    switch (spec.type) {
      case 'int':
        properties[spec.name] = {
          type: 'integer',
          minimum: spec.min,
          maximum: spec.max,
          ...(typeof spec.default === 'number'
            ? { default: spec.default }
            : { description: 'Default: the number of houses' }),
        };
        break;
      case 'bool':
        properties[spec.name] = { type: 'boolean', default: spec.default };
        break;
      case 'enum':
        properties[spec.name] = { type: 'string', enum: [...spec.values], default: spec.default };
        break;
    }
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    additionalProperties: false,
  };
}

/** The description of one hosted kind. */
export function kindView(engine: AnyEngine): KindView {
  const facts = FACTS[engine.kind];
  const defaults = engine.parseOptions({});
  const options = defaults.ok ? defaults.value : {};
  return {
    kind: engine.kind,
    name: facts.name,
    seatNames: [...engine.seatNames],
    options: optionsSchema(facts.options),
    defaults: options,
    notation: {
      moves: facts.moves,
      position: facts.position,
      start: engine.formatState(engine.setup(options, 0)),
    },
    rules: { path: `docs/rules/${engine.kind}.md`, url: `/rules/${engine.kind}.md` },
  };
}

/** Where a game of a kind would start with some options (and `first`, or a position): nothing stored. */
export interface StartView {
  readonly kind: GameKind;
  /** The options with their defaults filled in, as a game created with them would have. */
  readonly options: Options;
  /** The start position in the game's notation. */
  readonly position: string;
  readonly board: BoardView;
  readonly toMove: Side;
  readonly toMoveName: string;
  readonly legalMoves: readonly string[];
}

/** The start of a game (see startOf): its position, structured board and the first legal moves. */
export function startView(engine: AnyEngine, options: Options, start: Start): StartView {
  const state =
    start.initialPosition === undefined
      ? engine.setup(options, start.first)
      : readPosition(engine, options, start.initialPosition).state;
  return {
    kind: engine.kind,
    options,
    position: engine.formatState(state),
    board: engine.board(state),
    toMove: engine.turn(state),
    toMoveName: engine.seatNames[engine.turn(state)] as string,
    legalMoves: engine.moves(state).map((m) => engine.formatMove(state, m)),
  };
}
