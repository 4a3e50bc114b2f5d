// Creation options as data: each game lists its options; one validator fills defaults and rejects
// unknown names, wrong types and out-of-range values.
import { err, ok, type EngineError, type Options, type Result } from '../types';

/** What a person reads about an option (a form's label and help text). */
interface OptionText {
  readonly name: string;
  /** A short label ("Seeds per house"). */
  readonly title: string;
  /** One sentence on what the option changes. */
  readonly description: string;
}

export type OptionSpec =
  | (OptionText & {
      readonly type: 'int';
      readonly min: number;
      readonly max: number;
      /** A number, or computed from the options parsed before this one. */
      readonly default: number | ((parsed: Options) => number);
      /** Said instead of a number when the default is computed. */
      readonly defaultText?: string;
    })
  | (OptionText & { readonly type: 'bool'; readonly default: boolean })
  | (OptionText & {
      readonly type: 'enum';
      readonly values: readonly string[];
      /** A label for each value, in the order of `values`. */
      readonly labels: readonly string[];
      readonly default: string;
    });

const invalid = (message: string): { ok: false; error: EngineError } =>
  err({ code: 'INVALID_OPTIONS', message });

/** Validate raw creation options against `specs` (in order) and fill in defaults. */
export function parseOptionsWith(
  game: string,
  specs: readonly OptionSpec[],
  raw: unknown,
): Result<Options, EngineError> {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return invalid(`${game} options must be an object`);
  const input = raw as Record<string, unknown>;
  const known = specs.map((s) => s.name);
  const unknown = Object.keys(input).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    return invalid(
      `${game} has no option ${unknown.map((k) => JSON.stringify(k)).join(', ')}; known: ${known.join(', ')}`,
    );
  }
  const out: Record<string, number | boolean | string> = {};
  for (const spec of specs) {
    const value = input[spec.name];
    if (value === undefined) {
      out[spec.name] = typeof spec.default === 'function' ? spec.default(out) : spec.default;
      continue;
    }
    switch (spec.type) {
      case 'int':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min || value > spec.max) {
          return invalid(`${game} option ${spec.name} must be an integer from ${spec.min} to ${spec.max}`);
        }
        break;
      case 'bool':
        if (typeof value !== 'boolean') return invalid(`${game} option ${spec.name} must be true or false`);
        break;
      case 'enum':
        if (typeof value !== 'string' || !spec.values.includes(value)) {
          return invalid(`${game} option ${spec.name} must be one of ${spec.values.join(', ')}`);
        }
        break;
    }
    out[spec.name] = value;
  }
  return ok(out);
}
