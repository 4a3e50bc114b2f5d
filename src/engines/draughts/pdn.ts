// PDN export of a finished or running game (GameType 25 = Russian draughts).
import type { GameRecord } from '../engine';
import type { Outcome } from '../types';

/** The PDN result token for an outcome (White's score first, 2 points per game). */
export function pdnResult(outcome: Outcome | undefined): string {
  if (!outcome) return '*';
  if (outcome.winner === undefined) return '1-1';
  return outcome.winner === 0 ? '2-0' : '0-2';
}

const escape = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/**
 * Writes the PDN text: tags, then numbered moves (`1. c3-d4 f6-e5`, `1... f6-e5` when Black starts)
 * and the result. `startFen` is the FEN tag for a non-standard start (Black first), else undefined.
 */
export function writePdn(record: GameRecord, moves: readonly string[], startFen: string | undefined): string {
  const result = pdnResult(record.outcome);
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(record.startedAt);
  const tags: Array<[string, string]> = [
    ['Event', `Boardhost game ${record.id}`],
    ['Site', 'Boardhost'],
    ['Date', date ? `${date[1]}.${date[2]}.${date[3]}` : '????.??.??'],
    ['White', record.players[0]],
    ['Black', record.players[1]],
    ['Result', result],
    ['GameType', '25'],
  ];
  if (startFen !== undefined) tags.push(['FEN', startFen]);
  const tokens: string[] = [];
  moves.forEach((move, i) => {
    const ply = i + record.first;
    const number = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) tokens.push(`${number}.`);
    else if (i === 0) tokens.push(`${number}...`);
    tokens.push(move);
  });
  tokens.push(result);
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line && line.length + 1 + token.length > 80) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  lines.push(line);
  return `${tags.map(([k, v]) => `[${k} "${escape(v)}"]`).join('\n')}\n\n${lines.join('\n')}\n`;
}
