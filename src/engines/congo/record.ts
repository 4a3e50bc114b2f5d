// The PGN-like text record of a Congo game.
import type { GameRecord } from '../engine';
import { numberedMoves, pgnResult, recordDate, recordText, startTags } from '../record-text';
import { START_FEN } from './fen';

/**
 * Writes the record: tag pairs, then numbered moves (`1... ` when Black moved first) and the result.
 * A game from a position, or with Black first, has `SetUp "1"` and the start's `FEN`.
 */
export function exportCongoRecord(record: GameRecord): string {
  const result = pgnResult(record.outcome);
  const tags: Array<[string, string]> = [
    ['Event', `Boardhost game ${record.id}`],
    ['Site', 'Boardhost'],
    ['Date', recordDate(record.startedAt)],
    ['White', record.players[0]],
    ['Black', record.players[1]],
    ['Variant', 'Congo'],
    ['Result', result],
  ];
  if (record.outcome) tags.push(['Termination', record.outcome.reason]);
  const start = record.initialPosition ?? (record.first === 1 ? START_FEN.replace(/ w$/, ' b') : undefined);
  tags.push(...startTags(start, record.timeControl));
  return recordText(tags, [...numberedMoves(record.moves, record.first), result]);
}
