// The PGN-like text record of a mancala game: tag pairs, then the plies numbered one by one with the
// mover's letter (so extra moves show as two S or N plies in a row), then the result.
import type { Engine, GameRecord } from '../engine';
import { pgnResult, recordDate, recordText } from '../record-text';
import { sideLetter } from './notation';

/** Write a game's record; moves are replayed to find who made each ply. */
export function exportMancalaRecord<S, M>(engine: Engine<S, M>, record: GameRecord): string {
  const parsed = engine.parseOptions(record.options);
  const options = parsed.ok ? parsed.value : record.options;
  let state: S | undefined = engine.setup(options, record.first);
  const plies: string[] = [];
  record.moves.forEach((text, i) => {
    if (state === undefined) {
      plies.push(`${i + 1}. ?${text}`);
      return;
    }
    const letter = sideLetter(engine.turn(state));
    const move = engine.parseMove(state, text);
    const next = move.ok ? engine.play(state, move.value) : undefined;
    if (!move.ok || !next?.ok) {
      // A record that does not replay is still written, with the bad ply marked.
      plies.push(`${i + 1}. ?${text}`);
      state = undefined;
      return;
    }
    plies.push(`${i + 1}. ${letter}${engine.formatMove(state, move.value)}`);
    state = next.value;
  });
  const outcome = record.outcome ?? (state === undefined ? undefined : engine.outcome(state));
  const board = state === undefined ? undefined : engine.board(state);
  const score = outcome?.score ?? (board?.type === 'mancala' ? board.stores : undefined);
  const result = pgnResult(outcome);
  const tags: Array<[string, string]> = [
    ['Game', engine.kind],
    ['Options', JSON.stringify(options)],
    ['Date', recordDate(record.startedAt)],
    ['South', record.players[0]],
    ['North', record.players[1]],
    ['First', record.first === 0 ? 'South' : 'North'],
    ['Result', result],
  ];
  if (outcome) tags.push(['Termination', outcome.reason]);
  if (score) tags.push(['Score', `${score[0]}-${score[1]}`]);
  return recordText(tags, [...plies, result]);
}
