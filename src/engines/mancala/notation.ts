// Position strings (docs/rules: kalah.md, oware.md, congkak.md) and pit names.
//   Kalah / Congkak: `S1,..,Sh/Sstore/N1,..,Nh/Nstore X`   e.g. `4,4,4,4,4,4/0/4,4,4,4,4,4/0 S`
//   Oware:           `S1..S6/N1..N6 stores s-n X`          e.g. `4,4,4,4,4,4/4,4,4,4,4,4 stores 0-0 S`
import { err, ok, type EngineError, type Result, type Side } from '../types';

export const NOTATION_STYLES = ['store-between-rows', 'stores-suffix'] as const;
export type NotationStyle = (typeof NOTATION_STYLES)[number];

/** A position as read from text, before it is checked against a game's rules. */
export interface Diagram {
  readonly rows: readonly [readonly number[], readonly number[]];
  readonly stores: readonly [number, number];
  readonly toMove: Side;
}

const COUNT = '(?:0|[1-9]\\d{0,3})';
const ROW = `(${COUNT}(?:,${COUNT})*)`;
const BETWEEN = new RegExp(`^${ROW}/(${COUNT})/${ROW}/(${COUNT})\\s+([SN])$`);
const SUFFIX = new RegExp(`^${ROW}/${ROW}\\s+stores\\s+(${COUNT})-(${COUNT})\\s+([SN])$`);

const notation = (message: string): { ok: false; error: EngineError } =>
  err({ code: 'INVALID_NOTATION', message });

/** Read a position string in the given style (syntax only). */
export function parseDiagram(text: unknown, style: NotationStyle): Result<Diagram, EngineError> {
  if (typeof text !== 'string') return notation('a position must be a string');
  const trimmed = text.trim();
  const example =
    style === 'store-between-rows' ? '4,4,4,4,4,4/0/4,4,4,4,4,4/0 S' : '4,4,4,4,4,4/4,4,4,4,4,4 stores 0-0 S';
  const m = (style === 'store-between-rows' ? BETWEEN : SUFFIX).exec(trimmed);
  if (!m) return notation(`not a position: expected something like "${example}"`);
  const [south, north, sStore, nStore] =
    style === 'store-between-rows' ? [m[1], m[3], m[2], m[4]] : [m[1], m[2], m[3], m[4]];
  const row = (s: string | undefined) => (s ?? '').split(',').map(Number);
  return ok({
    rows: [row(south), row(north)],
    stores: [Number(sStore), Number(nStore)],
    toMove: m[5] === 'S' ? 0 : 1,
  });
}

/** Write a position string in the given style. */
export function formatDiagram(d: Diagram, style: NotationStyle): string {
  const side = d.toMove === 0 ? 'S' : 'N';
  const [south, north] = d.rows;
  return style === 'store-between-rows'
    ? `${south.join(',')}/${d.stores[0]}/${north.join(',')}/${d.stores[1]} ${side}`
    : `${south.join(',')}/${north.join(',')} stores ${d.stores[0]}-${d.stores[1]} ${side}`;
}

/** The name of pit `index` for clients: 'S3', 'Sstore', 'N1'. */
export function pitName(houses: number, index: number): string {
  const side = index <= houses ? 'S' : 'N';
  const local = index <= houses ? index : index - houses - 1;
  return local === houses ? `${side}store` : `${side}${local + 1}`;
}

/** 'S' / 'N' for a side. */
export const sideLetter = (side: Side): 'S' | 'N' => (side === 0 ? 'S' : 'N');
