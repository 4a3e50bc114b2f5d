// The PGN-like text record of a Congo game.
import type { GameRecord } from '../engine';
import type { Outcome } from '../types';
import { START_FEN } from './fen';

/** PGN result token of an outcome. */
export function resultToken(outcome: Outcome | undefined): string {
  if (!outcome) return '*';
  if (outcome.winner === undefined) return '1/2-1/2';
  return outcome.winner === 0 ? '1-0' : '0-1';
}

const quote = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** PGN date `YYYY.MM.DD` of an ISO timestamp, `????.??.??` when unreadable. */
function pgnDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[1]}.${m[2]}.${m[3]}` : '????.??.??';
}

/** Writes the record: tag pairs, then numbered moves (`1... ` when Black moved first) and the result. */
export function exportCongoRecord(record: GameRecord): string {
  const result = resultToken(record.outcome);
  const tags: Array<[string, string]> = [
    ['Event', `Boardhost game ${record.id}`],
    ['Site', 'Boardhost'],
    ['Date', pgnDate(record.startedAt)],
    ['White', record.players[0]],
    ['Black', record.players[1]],
    ['Variant', 'Congo'],
    ['Result', result],
  ];
  if (record.outcome) tags.push(['Termination', record.outcome.reason]);
  if (record.first === 1) tags.push(['FEN', START_FEN.replace(/ w$/, ' b')]);
  const tokens: string[] = [];
  record.moves.forEach((move, i) => {
    const ply = i + record.first; // ply 0 = White's first move
    const number = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) tokens.push(`${number}.`);
    else if (i === 0) tokens.push(`${number}...`);
    tokens.push(move);
  });
  tokens.push(result);
  const lines = tags.map(([name, value]) => `[${name} ${quote(value)}]`);
  return `${lines.join('\n')}\n\n${wrap(tokens, 80)}\n`;
}

/** Joins tokens with spaces into lines of at most `width` characters. */
function wrap(tokens: string[], width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line && line.length + 1 + token.length > width) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
