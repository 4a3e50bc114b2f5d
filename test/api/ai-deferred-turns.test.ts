// AI turns that wait in their games (an owner's turns beyond AI_MAX_TURNS_PER_OWNER) are all
// played, with no sweep to fall back on: a deferred turn is handed on only once the turn driver has
// let go of it (TurnDeferred.released), so a search finishing meanwhile cannot find it still taken
// and drop it. One account plays several AI games at once, move after move, on both stores.
import { signUp } from '../support/accounts';
import { appHarness, call, type Running } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

const GAMES = 6;
const ROUNDS = 6;

/** Polls the game until the AI has answered (the human to move again, or the game over), 15 s at most. */
async function answered(run: Running, id: string): Promise<any> {
  const end = Date.now() + 15_000;
  for (;;) {
    const { body } = await call(run, 'GET', `/games/${id}`);
    if (body.toMove === 0 || body.status !== 'ongoing') return body;
    if (Date.now() > end) throw new Error(`the AI never answered in ${id} at version ${body.version}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(['memory', 'redis'] as const)('deferred AI turns (%s)', (store) => {
  it(`one account's ${GAMES} AI games, moved at once round after round, are all answered`, async () => {
    const run = await harness.start(store, { app: { ai: { pool: { workers: 1, turnsPerOwner: 1 } } } });
    await run.app.services.ai.ensureAccounts();
    const me = await signUp(run.app, 'many', 'human');
    const started = await Promise.all(
      Array.from({ length: GAMES }, () =>
        call(run, 'POST', '/challenges/ai', { kind: 'kalah', level: 1, color: '0' }, me.auth),
      ),
    );
    let games = started.map((s) => s.body);
    expect(games.map((g) => g.seats[1].account)).toEqual(Array(GAMES).fill('ai-level-1'));
    for (let round = 0; round < ROUNDS; round++) {
      games = await Promise.all(
        games.map(async (game) => {
          if (game.status !== 'ongoing' || game.toMove !== 0) return game;
          const moved = await call(
            run,
            'POST',
            `/games/${game.id}/moves`,
            { move: game.legalMoves[0] },
            me.auth,
          );
          expect(moved.status).toBe(200);
          if (moved.body.status !== 'ongoing' || moved.body.toMove === 0) return moved.body;
          return answered(run, game.id);
        }),
      );
      // Every game is back to the human (or over): no AI turn was left waiting.
      for (const g of games) expect(g.status !== 'ongoing' || g.toMove === 0).toBe(true);
    }
  }, 120_000);
});
