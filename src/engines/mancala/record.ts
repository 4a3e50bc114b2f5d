// The PGN-like text record of a mancala game: tag pairs, then the plies numbered one by one with the
// mover's letter (so extra moves show as two S or N plies in a row), then the result.
import type { Engine, GameRecord } from '../engine';
import type { Outcome } from '../types';
import { sideLetter } from './notation';

const quote = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function resultText(outcome: Outcome | undefined): string {
  if (!outcome) return '*';
  if (outcome.winner === undefined) return '1/2-1/2';
  return outcome.winner === 0 ? '1-0' : '0-1';
}

/** Join tokens into lines of at most 80 characters, as PGN does. */
function wrap(tokens: readonly string[]): string {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line && line.length + 1 + token.length > 80) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

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
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(record.startedAt);
  const result = resultText(outcome);
  const tags: Array<[string, string]> = [
    ['Game', engine.kind],
    ['Options', JSON.stringify(options)],
    ['Date', date ? `${date[1]}.${date[2]}.${date[3]}` : '????.??.??'],
    ['South', record.players[0]],
    ['North', record.players[1]],
    ['First', record.first === 0 ? 'South' : 'North'],
    ['Result', result],
  ];
  if (outcome) tags.push(['Termination', outcome.reason]);
  if (score) tags.push(['Score', `${score[0]}-${score[1]}`]);
  const header = tags.map(([k, v]) => `[${k} ${quote(v)}]`).join('\n');
  return `${header}\n\n${wrap([...plies, result])}\n`;
}
