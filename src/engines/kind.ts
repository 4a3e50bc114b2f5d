// What the server knows about one hosted game kind, beside its rules: one descriptor per kind, and
// one list of them (./kinds.ts). Everything outside the engine folder that needs a fact about a kind
// (its name, board family, notation texts, options, move limit, record format, how far verification
// sets go) reads it from the descriptor, never from a table of its own.
import type { AnyEngine, Engine } from './engine';
import type { OptionSpec } from './mancala/options';

/**
 * How a kind's moves are described and its board drawn. The family tags the engine's
 * `describeMove` result (`MoveDetails`), picks the web board and the AI's search family.
 */
export const BOARD_FAMILIES = ['congo', 'draughts', 'mancala'] as const;
export type BoardFamily = (typeof BOARD_FAMILIES)[number];

export interface KindDescriptor<S = unknown, M = unknown> {
  /** The rules: a pure engine (`engine.kind` is the kind's id in the API). */
  readonly engine: Engine<S, M>;
  /** The game's name for people. */
  readonly name: string;
  readonly family: BoardFamily;
  readonly notation: {
    /** How moves are written (shown by GET /kinds). */
    readonly moves: string;
    /** How positions are written. */
    readonly position: string;
  };
  /** The creation options, as the specs the engine validates with ([] for none). */
  readonly options: readonly OptionSpec[];
  /**
   * The house move limit: a game still going on after this many plies ends with reason
   * `move-limit` (docs/rules/README.md, "House rules").
   */
  readonly moveLimit: number;
  /** The text record's media type (GET /games/{id}/record). */
  readonly record: { readonly mediaType: string };
  /** Rules-verification sets pose positions at most this many plies into a game. */
  readonly verification: { readonly maxPlies: number };
}

/** Any descriptor, with its engine's state and move types hidden. */
export type AnyKind = KindDescriptor<unknown, unknown> & { readonly engine: AnyEngine };

/** A descriptor, checked: the only way a kind is declared. */
export function defineKind<S, M>(descriptor: KindDescriptor<S, M>): AnyKind {
  if (!Number.isInteger(descriptor.moveLimit) || descriptor.moveLimit < 1) {
    throw new Error(`${descriptor.engine.kind}: moveLimit must be a whole number ≥ 1`);
  }
  if (!Number.isInteger(descriptor.verification.maxPlies) || descriptor.verification.maxPlies < 0) {
    throw new Error(`${descriptor.engine.kind}: verification.maxPlies must be a whole number ≥ 0`);
  }
  for (const option of descriptor.options) {
    // A form shows each option by its title and help text, and each enum value by its label.
    if (option.title.trim() === '' || option.description.trim() === '') {
      throw new Error(`${descriptor.engine.kind}: option ${option.name} needs a title and a description`);
    }
    if (option.type === 'enum' && option.labels.length !== option.values.length) {
      throw new Error(`${descriptor.engine.kind}: option ${option.name} needs one label per value`);
    }
  }
  return descriptor as unknown as AnyKind;
}
