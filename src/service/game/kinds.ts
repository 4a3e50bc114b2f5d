// What a client needs to know about each hosted kind before it creates a game: its seats, its
// options as a JSON Schema, a summary of its notation, and where its rules page is. The facts come
// from the kind's descriptor (src/engines/kind.ts); the option specs are the ones its engine
// validates with, so the schema cannot say something the engine does not.
import type { AnyEngine } from '../../engines/engine';
import type { AnyKind, BoardFamily } from '../../engines/kind';
import type { OptionSpec } from '../../engines/mancala/options';
import type { BoardView, GameKind, Options, Side } from '../../engines/types';
import { readPosition, type Start } from './start';
import { legalMovesOf } from './rules';

/** A JSON Schema (draft 2020-12) document, as plain JSON. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface KindView {
  readonly kind: GameKind;
  /** The game's name for people. */
  readonly name: string;
  /** How its moves are described and its board drawn: congo, draughts or mancala. */
  readonly family: BoardFamily;
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

/**
 * The JSON Schema of a kind's options, from the specs its engine validates with. Every property has
 * a `title` (a form's label) and a `description` (its help text); an enum lists its values in `enum`
 * and a label for each, in the same order, in `x-enumNames` (the one place labels are; forms read
 * them, validators ignore the `x-` keyword).
 */
export function optionsSchema(specs: readonly OptionSpec[]): JsonSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const spec of specs) {
    const text = { title: spec.title, description: spec.description };
    switch (spec.type) {
      case 'int':
        properties[spec.name] = {
          type: 'integer',
          ...text,
          minimum: spec.min,
          maximum: spec.max,
          ...(typeof spec.default === 'number'
            ? { default: spec.default }
            : { description: `${spec.description} Default: ${spec.defaultText ?? 'computed'}.` }),
        };
        break;
      case 'bool':
        properties[spec.name] = { type: 'boolean', ...text, default: spec.default };
        break;
      case 'enum':
        properties[spec.name] = {
          type: 'string',
          ...text,
          enum: [...spec.values],
          'x-enumNames': [...spec.labels],
          default: spec.default,
        };
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
export function kindView(kind: AnyKind): KindView {
  const { engine } = kind;
  const defaults = engine.parseOptions({});
  const options = defaults.ok ? defaults.value : {};
  return {
    kind: engine.kind,
    name: kind.name,
    family: kind.family,
    seatNames: [...engine.seatNames],
    options: optionsSchema(kind.options),
    defaults: options,
    notation: {
      moves: kind.notation.moves,
      position: kind.notation.position,
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
    legalMoves: legalMovesOf(engine, state),
  };
}
