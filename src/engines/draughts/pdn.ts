// PDN export of a finished or running game (GameType 25 = Russian draughts).
import type { GameRecord } from '../engine';
import { numberedMoves, recordDate, recordText, startTags } from '../record-text';
import type { Outcome } from '../types';

/** The PDN result token for an outcome (White's score first, 2 points per game). */
export function pdnResult(outcome: Outcome | undefined): string {
  if (!outcome) return '*';
  if (outcome.winner === undefined) return '1-1';
  return outcome.winner === 0 ? '2-0' : '0-2';
}

/**
 * Writes the PDN text: tags, then numbered moves (`1. c3-d4 f6-e5`, `1... f6-e5` when Black starts)
 * and the result. `startFen` is the FEN of a non-standard start (a game from a position, or Black
 * first), written with `SetUp "1"`; undefined for the standard start. TimeControl as PGN 9.6.1.
 */
export function writePdn(record: GameRecord, moves: readonly string[], startFen: string | undefined): string {
  const result = pdnResult(record.outcome);
  const tags: Array<[string, string]> = [
    ['Event', `Boardhost game ${record.id}`],
    ['Site', 'Boardhost'],
    ['Date', recordDate(record.startedAt)],
    ['White', record.players[0]],
    ['Black', record.players[1]],
    ['Result', result],
    ['GameType', '25'],
  ];
  tags.push(...startTags(startFen, record.timeControl));
  return recordText(tags, [...numberedMoves(moves, record.first), result]);
}
