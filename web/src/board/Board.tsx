import { GridBoard } from './GridBoard';
import { MancalaBoard } from './MancalaBoard';
import { CONGO_PIECES, DRAUGHTS_PIECES } from './pieces';
import type { BoardProps } from './types';

export type { BoardMarks, BoardProps } from './types';

/**
 * Any game's board, drawn as SVG from the API's structured `board`. Without `onActivate` it is a
 * picture (start positions, thumbnails); with it, squares and houses that `marks` names selectable
 * or targets become buttons (click, Enter or Space).
 */
export function Board(props: BoardProps) {
  const { board } = props;
  return board.type === 'grid' ? (
    <GridBoard {...props} board={board} />
  ) : (
    <MancalaBoard {...props} board={board} />
  );
}

/** The key to the pieces: Congo's letters, draughts' men and kings (nothing for mancala). */
export function Legend({
  kind,
  seatNames: names,
}: {
  kind: BoardProps['kind'];
  seatNames: readonly string[];
}) {
  if (kind === 'congo') {
    return (
      <dl class="legend" aria-label="Pieces">
        {Object.values(CONGO_PIECES).map((p) => (
          <div key={p.symbol}>
            <dt>{p.symbol}</dt>
            <dd>{p.name}</dd>
          </div>
        ))}
        <div>
          <dt>⬤</dt>
          <dd>
            light: {names[0]}, dark: {names[1]}
          </dd>
        </div>
      </dl>
    );
  }
  if (kind === 'russian-draughts') {
    return (
      <dl class="legend" aria-label="Pieces">
        {Object.values(DRAUGHTS_PIECES).map((p) => (
          <div key={p.name}>
            <dt>{p.symbol || '●'}</dt>
            <dd>{p.name}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return null;
}
