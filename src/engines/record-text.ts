// The parts every text game record shares (PDN for draughts, PGN-like for Congo and mancala):
// quoted tag pairs, a YYYY.MM.DD date, numbered movetext and 80-column wrapping.
import type { Outcome } from './types';

/** PGN-style result token: 1-0, 0-1, 1/2-1/2, or * while the game goes on. */
export function pgnResult(outcome: Outcome | undefined): string {
  if (!outcome) return '*';
  if (outcome.winner === undefined) return '1/2-1/2';
  return outcome.winner === 0 ? '1-0' : '0-1';
}

/** `YYYY.MM.DD` of an ISO timestamp, `????.??.??` when unreadable. */
export function recordDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[1]}.${m[2]}.${m[3]}` : '????.??.??';
}

/**
 * The tags that say where the game started and how long players could think: `SetUp "1"` and `FEN`
 * for a game that did not start from the standard position (`start`), and `TimeControl`.
 */
export function startTags(
  start: string | undefined,
  timeControl: string | undefined,
): Array<[string, string]> {
  const tags: Array<[string, string]> = [];
  if (start !== undefined) tags.push(['SetUp', '1'], ['FEN', start]);
  if (timeControl !== undefined) tags.push(['TimeControl', timeControl]);
  return tags;
}

/** Tag-pair lines `[Name "value"]` with quotes and backslashes escaped. */
export function tagLines(tags: ReadonlyArray<readonly [string, string]>): string {
  return tags
    .map(([name, value]) => `[${name} "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`)
    .join('\n');
}

/** Moves numbered per full move (`1. a b 2. c`), `1...` when the second player moved first. */
export function numberedMoves(moves: readonly string[], first: 0 | 1): string[] {
  const tokens: string[] = [];
  moves.forEach((move, i) => {
    const ply = i + first;
    const number = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) tokens.push(`${number}.`);
    else if (i === 0) tokens.push(`${number}...`);
    tokens.push(move);
  });
  return tokens;
}

/** The whole record: tags, a blank line, movetext wrapped at 80 columns, a final newline. */
export function recordText(
  tags: ReadonlyArray<readonly [string, string]>,
  tokens: readonly string[],
): string {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line && line.length + 1 + token.length > 80) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return `${tagLines(tags)}\n\n${lines.join('\n')}\n`;
}
