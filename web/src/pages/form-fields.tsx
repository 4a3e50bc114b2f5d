// Form fields generated from the API's descriptions: a kind's options (a JSON Schema, GET /kinds)
// and a time control (docs/correspondence.md, "Time controls"). Values stay strings and booleans while edited; an
// empty field means "the default" and is left out of the request.
import type { Schemas } from '../api/client';

export type KindInfo = Schemas['KindInfo'];
export type OptionValues = Record<string, string | boolean>;

interface PropertySchema {
  readonly type?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly string[];
  /** Enum values with their labels (`{ const, title }`), as GET /kinds describes them. */
  readonly oneOf?: ReadonlyArray<{ readonly const?: unknown; readonly title?: string }>;
  /** Enum labels in the order of `enum` (the other way schemas label values). */
  readonly 'x-enumNames'?: readonly string[];
  readonly default?: unknown;
  readonly title?: string;
  readonly description?: string;
}

function properties(kind: KindInfo): Array<[string, PropertySchema]> {
  const props = (kind.options as { properties?: Record<string, PropertySchema> }).properties ?? {};
  return Object.entries(props);
}

/** The options object for a request: set fields only, typed as the schema says. */
export function optionsFor(kind: KindInfo, values: OptionValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of properties(kind)) {
    const value = values[name];
    if (value === undefined || value === '') continue;
    if (schema.type === 'integer' || schema.type === 'number') out[name] = Number(value);
    else out[name] = value;
  }
  return out;
}

/**
 * An option's label: the schema's `title`, else words from its key ("emptyCapture" → "empty
 * capture") for a kind whose schema has none.
 */
function title(name: string, schema: PropertySchema): string {
  return schema.title ?? name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** An enum's values with their labels (oneOf titles or x-enumNames), else the values themselves. */
export function enumChoices(schema: PropertySchema): Array<{ value: string; label: string }> | undefined {
  const consts = schema.oneOf?.filter((o) => o.const !== undefined);
  if (consts && consts.length > 0) {
    return consts.map((o) => ({ value: String(o.const), label: o.title ?? String(o.const) }));
  }
  if (!schema.enum) return undefined;
  const names = schema['x-enumNames'];
  return schema.enum.map((value, i) => ({ value, label: names?.[i] ?? value }));
}

export function OptionFields(props: {
  readonly kind: KindInfo;
  readonly values: OptionValues;
  readonly onChange: (values: OptionValues) => void;
}) {
  const { kind, values, onChange } = props;
  const fields = properties(kind);
  if (fields.length === 0) return <p class="hint">{kind.name} has no options.</p>;
  const set = (name: string, value: string | boolean) => onChange({ ...values, [name]: value });
  return (
    <fieldset>
      <legend>{kind.name} options</legend>
      {fields.map(([name, schema]) => {
        const id = `option-${name}`;
        const fallback = kind.defaults[name];
        const label = title(name, schema);
        const choices = enumChoices(schema);
        // The hint: the schema's description, then the range and the default in words.
        const range =
          schema.type === 'integer' || schema.type === 'number'
            ? `From ${schema.minimum ?? ''} to ${schema.maximum ?? ''}${fallback === undefined ? '' : `, default ${String(fallback)}`}.`
            : undefined;
        const defaultLabel = choices?.find((c) => c.value === String(fallback))?.label;
        const hint = [schema.description, range, defaultLabel ? `Default: ${defaultLabel}.` : undefined]
          .filter(Boolean)
          .join(' ');
        const hintId = `${id}-hint`;
        const described = hint ? { 'aria-describedby': hintId } : {};
        const small = hint ? <small id={hintId}>{hint}</small> : null;
        if (schema.type === 'boolean') {
          const checked = typeof values[name] === 'boolean' ? (values[name] as boolean) : fallback === true;
          return (
            <div class="field check" key={name}>
              <input
                id={id}
                type="checkbox"
                checked={checked}
                {...described}
                onChange={(e) => set(name, (e.currentTarget as HTMLInputElement).checked)}
              />
              <label for={id}>{label}</label>
              {small}
            </div>
          );
        }
        if (choices) {
          return (
            <div class="field" key={name}>
              <label for={id}>{label}</label>
              <select
                id={id}
                value={String(values[name] ?? fallback ?? '')}
                {...described}
                onChange={(e) => set(name, (e.currentTarget as HTMLSelectElement).value)}
              >
                {choices.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
              {small}
            </div>
          );
        }
        return (
          <div class="field" key={name}>
            <label for={id}>{label}</label>
            <input
              id={id}
              type="number"
              inputMode="numeric"
              min={schema.minimum}
              max={schema.maximum}
              placeholder={fallback === undefined ? 'default' : String(fallback)}
              value={typeof values[name] === 'string' ? (values[name] as string) : ''}
              {...described}
              onInput={(e) => set(name, (e.currentTarget as HTMLInputElement).value)}
            />
            {small}
          </div>
        );
      })}
    </fieldset>
  );
}

export interface TimeValues {
  readonly type: 'unlimited' | 'realtime' | 'correspondence';
  readonly initialMinutes: string;
  readonly incrementSeconds: string;
  readonly daysPerMove: string;
}

export const DEFAULT_TIME: TimeValues = {
  type: 'unlimited',
  initialMinutes: '5',
  incrementSeconds: '3',
  daysPerMove: '3',
};

export function timeControlFor(t: TimeValues): Schemas['TimeControlInput'] {
  switch (t.type) {
    case 'realtime':
      return {
        type: 'realtime',
        initialSeconds: Math.round(Number(t.initialMinutes) * 60),
        incrementSeconds: Number(t.incrementSeconds || 0),
      };
    case 'correspondence':
      return { type: 'correspondence', daysPerMove: Number(t.daysPerMove) };
    default:
      return { type: 'unlimited' };
  }
}

export function TimeFields(props: {
  readonly value: TimeValues;
  readonly onChange: (v: TimeValues) => void;
}) {
  const { value, onChange } = props;
  const set = (patch: Partial<TimeValues>) => onChange({ ...value, ...patch });
  const types: Array<[TimeValues['type'], string]> = [
    ['unlimited', 'Unlimited'],
    ['realtime', 'Real time (Fischer clock)'],
    ['correspondence', 'Correspondence (days per move)'],
  ];
  return (
    <fieldset>
      <legend>Time control</legend>
      {types.map(([type, label]) => (
        <div class="field check" key={type}>
          <input
            id={`tc-${type}`}
            type="radio"
            name="time-control"
            value={type}
            checked={value.type === type}
            onChange={() => set({ type })}
          />
          <label for={`tc-${type}`}>{label}</label>
        </div>
      ))}
      {value.type === 'realtime' ? (
        <div class="row">
          <div class="field">
            <label for="tc-initial">Minutes each</label>
            <input
              id="tc-initial"
              type="number"
              min={0.25}
              max={180}
              step="any"
              value={value.initialMinutes}
              onInput={(e) => set({ initialMinutes: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
          <div class="field">
            <label for="tc-increment">Increment (seconds)</label>
            <input
              id="tc-increment"
              type="number"
              min={0}
              max={180}
              value={value.incrementSeconds}
              onInput={(e) => set({ incrementSeconds: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
        </div>
      ) : null}
      {value.type === 'correspondence' ? (
        <div class="field">
          <label for="tc-days">Days per move</label>
          <input
            id="tc-days"
            type="number"
            min={1}
            max={14}
            value={value.daysPerMove}
            onInput={(e) => set({ daysPerMove: (e.currentTarget as HTMLInputElement).value })}
          />
        </div>
      ) : null}
    </fieldset>
  );
}
