// The search plays on its own fast paths (mancala `step`, draughts and Congo move buffers); every
// state they build must be the one the engine builds: same moves in the same order, same position,
// same end. Checked along seeded random games to the end.
import { adapterFor } from '../../src/ai/kinds';
import { prng } from '../../src/ai/rng';
import { KINDS, engineOf, optionsOf } from './helpers';

const GAMES = 4;

it.each(KINDS)('%s: the adapter agrees with the engine along random games', (kind) => {
  const engine = engineOf(kind);
  const adapter = adapterFor(engine);
  const rand = prng(7);
  for (let game = 0; game < GAMES; game++) {
    let state = engine.setup(optionsOf(kind), game % 2 === 0 ? 0 : 1);
    for (let ply = 0; ply < 400; ply++) {
      const legal = engine.moves(state).map((m) => engine.formatMove(state, m));
      const ours = adapter.moves(state, 3);
      expect(ours.map((m) => engine.formatMove(state, m))).toEqual(legal);
      const outcome = engine.outcome(state);
      expect(adapter.terminal(state, 0) !== undefined).toBe(outcome !== undefined);
      if (outcome) break;
      expect(adapter.turn(state)).toBe(engine.turn(state));
      const i = Math.floor(rand() * ours.length);
      const mine = adapter.play(state, ours[i]);
      const next = engine.play(state, engine.moves(state)[i]);
      if (!next.ok) throw new Error(next.error.message);
      expect(engine.formatState(mine)).toBe(engine.formatState(next.value));
      expect(engine.outcome(mine)).toEqual(engine.outcome(next.value));
      // Go on from the engine's state half the time, from ours the other half (both must do).
      state = rand() < 0.5 ? mine : next.value;
    }
  }
});
