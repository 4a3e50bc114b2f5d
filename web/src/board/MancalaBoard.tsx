import type { MancalaBoard as MancalaBoardData } from '../api/client';
import { kindName } from '../pages/kinds';
import { activateOnKey, type BoardProps } from './types';

const U = 70; // one house, in SVG units
const PAD = 10;
/** The band above and below the tray where the rows and stores are named. */
const BAND = 24;

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
  const height = 2 * U + 2 * PAD + 2 * BAND;
  const clockwise = kind === 'congkak';
  const pits: Pit[] = [];
  const place = (x: number, y: number) => (flipped ? { x: width - x, y: height - y } : { x, y });
  for (let seat = 0; seat < 2; seat++) {
    const south = seat === 0;
    for (let i = 1; i <= h; i++) {
      // Column 1..h from the left, seen from South.
      const leftToRight = south !== clockwise;
      const column = leftToRight ? i : h + 1 - i;
      const at = place(PAD + (column + 0.5) * U, BAND + PAD + (south ? 1.5 : 0.5) * U);
      pits.push({
        id: `${south ? 'S' : 'N'}${i}`,
        seat,
        house: i,
        seeds: board.houses[seat]?.[i - 1] ?? 0,
        ...at,
      });
    }
    const storeRight = south !== clockwise;
    const at = place(PAD + (storeRight ? h + 1.5 : 0.5) * U, BAND + PAD + U);
    pits.push({ id: `${south ? 'S' : 'N'}store`, seat, seeds: board.stores[seat] ?? 0, ...at });
  }
  return { pits, width, height };
}

/**
 * The visible names of each side's row and store ("south houses", "south store"), in the band on
 * that side's edge of the board: the store's name at its end, the row's at the other. Hidden from
 * screen readers, whose names of the houses and stores say as much.
 */
function RowLabels(props: {
  readonly pits: readonly Pit[];
  readonly seatNames: readonly string[];
  readonly width: number;
  readonly height: number;
}) {
  const { pits, seatNames, width, height } = props;
  return (
    <g aria-hidden="true" class="row-labels">
      {[0, 1].map((seat) => {
        const house = pits.find((p) => p.seat === seat && p.house !== undefined);
        const store = pits.find((p) => p.seat === seat && p.house === undefined);
        if (!house || !store) return null;
        const y = house.y > height / 2 ? height - BAND / 2 + 5 : BAND / 2 + 5;
        const storeLeft = store.x < width / 2;
        const owner = seatNames[seat] ?? `seat ${seat}`;
        return (
          <g key={seat} data-seat={seat}>
            <text
              class="store-name"
              x={storeLeft ? PAD : width - PAD}
              y={y}
              text-anchor={storeLeft ? 'start' : 'end'}
            >
              {`${owner} store`}
            </text>
            <text
              class="row-name"
              x={storeLeft ? width - PAD : PAD}
              y={y}
              text-anchor={storeLeft ? 'end' : 'start'}
            >
              {`${owner} houses`}
            </text>
          </g>
        );
      })}
    </g>
  );
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
      <rect class="tray" x={2} y={BAND + 2} width={width - 4} height={height - 2 * BAND - 4} rx={U / 2} />
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
      <RowLabels pits={pits} seatNames={seatNames} width={width} height={height} />
      {/* House numbers, outside the pits so that a pit's visible text is its count alone. */}
      <g aria-hidden="true" class="house-numbers">
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
