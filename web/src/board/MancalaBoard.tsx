import type { MancalaBoard as MancalaBoardData } from '../api/client';
import { kindName } from '../pages/kinds';
import { activateOnKey, type BoardProps } from './types';

const U = 70; // one house, in SVG units
const PAD = 10;

interface Pit {
  readonly id: string;
  readonly seat: number;
  readonly house?: number; // 1-based; undefined for a store
  readonly seeds: number;
  readonly x: number;
  readonly y: number;
}

/**
 * Where each pit is, seen from South (seat 0) at the bottom: Kalah and Oware sow counter-clockwise
 * (South's houses 1→h left to right, its store on the right); Congkak clockwise, each player's store
 * on their left (South's houses 1→h right to left). Flipped turns the board half round.
 */
export function mancalaLayout(kind: BoardProps['kind'], board: MancalaBoardData, flipped: boolean) {
  const h = board.houses[0]?.length ?? 0;
  const width = (h + 2) * U + 2 * PAD;
  const height = 2 * U + 2 * PAD;
  const clockwise = kind === 'congkak';
  const pits: Pit[] = [];
  const place = (x: number, y: number) => (flipped ? { x: width - x, y: height - y } : { x, y });
  for (let seat = 0; seat < 2; seat++) {
    const south = seat === 0;
    for (let i = 1; i <= h; i++) {
      // Column 1..h from the left, seen from South.
      const leftToRight = south !== clockwise;
      const column = leftToRight ? i : h + 1 - i;
      const at = place(PAD + (column + 0.5) * U, PAD + (south ? 1.5 : 0.5) * U);
      pits.push({
        id: `${south ? 'S' : 'N'}${i}`,
        seat,
        house: i,
        seeds: board.houses[seat]?.[i - 1] ?? 0,
        ...at,
      });
    }
    const storeRight = south !== clockwise;
    const at = place(PAD + (storeRight ? h + 1.5 : 0.5) * U, PAD + U);
    pits.push({ id: `${south ? 'S' : 'N'}store`, seat, seeds: board.stores[seat] ?? 0, ...at });
  }
  return { pits, width, height };
}

/** Kalah, Oware and Congkak: two rows of houses with their seed counts, and the two stores. */
export function MancalaBoard(props: BoardProps & { readonly board: MancalaBoardData }) {
  const { board, kind, flipped = false, marks = {}, onActivate } = props;
  const seatNames = props.seatNames;
  const { pits, width, height } = mancalaLayout(kind, board, flipped);
  return (
    <svg
      class={`board mancala ${kind}`}
      viewBox={`0 0 ${width} ${height}`}
      role="group"
      aria-label={props.label ?? `${kindName(kind)} board${flipped ? `, ${seatNames[1]} at the bottom` : ''}`}
    >
      <rect class="tray" x={2} y={2} width={width - 4} height={height - 4} rx={U / 2} />
      {pits.map((pit) => {
        const selectable = marks.selectable?.has(pit.id) ?? false;
        const actionable = Boolean(onActivate) && selectable;
        const classes = ['pit', pit.house ? 'house' : 'store', `side-${pit.seat}`];
        if (selectable) classes.push('selectable');
        if (marks.last?.includes(pit.id)) classes.push('last');
        if (marks.captured?.includes(pit.id)) classes.push('captured');
        if (marks.relays?.includes(pit.id)) classes.push('relay');
        if (marks.pulse === pit.id) classes.push('pulse');
        const owner = seatNames[pit.seat] ?? `seat ${pit.seat}`;
        const name = pit.house ? `${owner} house ${pit.house}` : `${owner} store`;
        // The name starts with what the pit shows, its seed count (for voice control).
        const relay = marks.relays?.includes(pit.id) ? ', relayed' : '';
        const label = `${pit.seeds} ${pit.seeds === 1 ? 'seed' : 'seeds'}, ${name}${relay}${selectable ? ', can sow' : ''}`;
        const activate = () => onActivate?.(pit.id);
        return (
          <g
            key={pit.id}
            class={classes.join(' ')}
            data-id={pit.id}
            role={actionable ? 'button' : 'img'}
            tabindex={actionable ? 0 : undefined}
            aria-label={label}
            onClick={actionable ? activate : undefined}
            onKeyDown={actionable ? (e: KeyboardEvent) => activateOnKey(e, activate) : undefined}
          >
            {pit.house ? (
              <circle class="hole" cx={pit.x} cy={pit.y} r={U * 0.4} />
            ) : (
              <rect
                class="hole"
                x={pit.x - U * 0.4}
                y={pit.y - U * 0.9}
                width={U * 0.8}
                height={U * 1.8}
                rx={U * 0.4}
              />
            )}
            <text class="count" x={pit.x} y={pit.y} dy="0.35em" text-anchor="middle" aria-hidden="true">
              {pit.seeds}
            </text>
          </g>
        );
      })}
      {/* House numbers, outside the pits so that a pit's visible text is its count alone. */}
      <g aria-hidden="true">
        {pits.map((pit) =>
          pit.house ? (
            <text
              key={pit.id}
              class="label"
              x={pit.x}
              y={pit.y > height / 2 ? pit.y + U * 0.4 + 11 : pit.y - U * 0.4 - 3}
              text-anchor="middle"
            >
              {pit.house}
            </text>
          ) : null,
        )}
      </g>
    </svg>
  );
}
