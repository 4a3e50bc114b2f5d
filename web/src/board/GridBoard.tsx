import type { GridBoard as GridBoardData } from '../api/client';
import { pieceLook } from './pieces';
import { kindName } from '../pages/kinds';
import { activateOnKey, type BoardProps } from './types';

const S = 60; // one square, in SVG units

/** `a1`-style name of the square at file index f (0 = a) and rank r (1 = first). */
export function squareName(f: number, r: number): string {
  return `${String.fromCharCode(97 + f)}${r}`;
}

/** Congo's 7×7 board (river, castles, animals) and draughts' 8×8 (dark squares, men, kings). */
export function GridBoard(props: BoardProps & { readonly board: GridBoardData }) {
  const { board, kind, flipped = false, marks = {}, onActivate } = props;
  const seatNames = props.seatNames;
  const draughts = kind === 'russian-draughts';
  const zoneOf = new Map<string, { name: string; side?: number }>();
  for (const zone of board.zones) for (const sq of zone.squares) zoneOf.set(sq, zone);
  const pieceAt = new Map(board.pieces.map((p) => [p.square, p]));
  const path = marks.path ?? [];
  const squares = [];
  for (let r = 1; r <= board.ranks; r++) {
    for (let f = 0; f < board.files; f++) {
      const id = squareName(f, r);
      const x = (flipped ? board.files - 1 - f : f) * S;
      const y = (flipped ? r - 1 : board.ranks - r) * S;
      const zone = zoneOf.get(id);
      const piece = pieceAt.get(id);
      const selectable = marks.selectable?.has(id) ?? false;
      const target = marks.targets?.has(id) ?? false;
      const onPath = path.includes(id);
      const actionable = Boolean(onActivate) && (selectable || target || path[0] === id);
      const classes = ['sq'];
      if (draughts) classes.push((f + r) % 2 === 1 ? 'dark' : 'light');
      else classes.push((f + r) % 2 === 1 ? 'c-dark' : 'c-light');
      if (zone) classes.push(zone.name);
      if (selectable) classes.push('selectable');
      if (target) classes.push('target');
      if (onPath) classes.push('on-path');
      if (marks.last?.includes(id)) classes.push('last');
      if (marks.captured?.includes(id)) classes.push('captured');
      const look = piece ? pieceLook(piece.piece) : undefined;
      const words = [id];
      if (piece && look) words.push(`${seatNames[piece.side] ?? `seat ${piece.side}`} ${look.name}`);
      else words.push('empty');
      if (zone) words.push(zone.name === 'castle' ? `${seatNames[zone.side ?? 0] ?? ''} castle` : 'river');
      if (target) words.push('move here');
      else if (onPath) words.push('selected');
      else if (selectable) words.push('can move');
      const activate = () => onActivate?.(id);
      squares.push(
        <g
          key={id}
          class={classes.join(' ')}
          data-id={id}
          transform={`translate(${x} ${y})`}
          role={actionable ? 'button' : 'img'}
          tabindex={actionable ? 0 : undefined}
          aria-label={words.join(', ')}
          onClick={actionable ? activate : undefined}
          onKeyDown={actionable ? (e: KeyboardEvent) => activateOnKey(e, activate) : undefined}
        >
          <rect class="square" width={S} height={S} />
          {piece && look ? (
            <g class={`piece side-${piece.side} ${piece.piece}`} aria-hidden="true">
              <circle cx={S / 2} cy={S / 2} r={S * 0.38} />
              {draughts && piece.piece === 'king' ? (
                <circle class="crown" cx={S / 2} cy={S / 2} r={S * 0.24} />
              ) : null}
              {look.symbol ? (
                <text x={S / 2} y={S / 2} dy="0.35em" text-anchor="middle">
                  {look.symbol}
                </text>
              ) : null}
            </g>
          ) : null}
          {target ? (
            <circle class="dot" cx={S / 2} cy={S / 2} r={S * (piece ? 0.45 : 0.14)} aria-hidden="true" />
          ) : null}
        </g>,
      );
    }
  }
  const coords = [];
  for (let f = 0; f < board.files; f++) {
    const x = (flipped ? board.files - 1 - f : f) * S + S - 4;
    coords.push(
      <text key={`f${f}`} class="coord" x={x} y={board.ranks * S - 4} text-anchor="end" aria-hidden="true">
        {String.fromCharCode(97 + f)}
      </text>,
    );
  }
  for (let r = 1; r <= board.ranks; r++) {
    const y = (flipped ? r - 1 : board.ranks - r) * S + 14;
    coords.push(
      <text key={`r${r}`} class="coord" x={3} y={y} aria-hidden="true">
        {r}
      </text>,
    );
  }
  return (
    <svg
      class={`board grid ${kind}`}
      viewBox={`0 0 ${board.files * S} ${board.ranks * S}`}
      role="group"
      aria-label={props.label ?? `${kindName(kind)} board${flipped ? `, ${seatNames[1]} at the bottom` : ''}`}
    >
      {squares}
      {coords}
    </svg>
  );
}
