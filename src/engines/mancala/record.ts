// The PGN-like text record of a mancala game: tag pairs, then the plies numbered one by one with the
// mover's letter (so extra moves show as two S or N plies in a row), then the result.
import type { Engine, GameRecord } from '../engine';
import { pgnResult, recordDate, recordText, startTags } from '../record-text';
import { sideLetter } from './notation';

/**
 * Write a game's record; moves are replayed (from the standard start, or from the position a game
 * from a position started at, given as `SetUp "1"` and `FEN`) to find who made each ply.
 */
export function exportMancalaRecord<S, M>(engine: Engine<S, M>, record: GameRecord): string {
  const parsed = engine.parseOptions(record.options);
  const options = parsed.ok ? parsed.value : record.options;
  const start =
    record.initialPosition === undefined ? undefined : engine.parseState(record.initialPosition, options);
  let state: S | undefined =
    start === undefined ? engine.setup(options, record.first) : start.ok ? start.value : undefined;
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
  // Only a game the rules ended has a final score (a resignation, agreement, timeout or abort has
  // none, as in the game's JSON); an ongoing game has none yet.
  const score = outcome?.score;
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
  tags.push(...startTags(record.initialPosition, record.timeControl));
  return recordText(tags, [...plies, result]);
}
