// The engine's own verdict on a move list, to check that a game played through the API ends as
// the rules say (the engines themselves are checked against the test vectors of docs/rules).
import { getEngine } from '../../src/engines/kinds';
import type { Outcome } from '../../src/engines/types';

/** Replays `moves` from the start with the given options; returns the final position and outcome. */
export function referee(
  kind: string,
  options: unknown,
  moves: readonly string[],
): { position: string; outcome: Outcome | undefined } {
  const engine = getEngine(kind);
  if (!engine) throw new Error(`no engine ${kind}`);
  const parsed = engine.parseOptions(options);
  if (!parsed.ok) throw new Error(parsed.error.message);
  let state = engine.setup(parsed.value);
  for (const text of moves) {
    const move = engine.parseMove(state, text);
    if (!move.ok) throw new Error(`${text}: ${move.error.message}`);
    const next = engine.play(state, move.value);
    if (!next.ok) throw new Error(`${text}: ${next.error.message}`);
    state = next.value;
  }
  return { position: engine.formatState(state), outcome: engine.outcome(state) };
}
