// The turn driver with providers of the test's own (what push-mode bots will plug in): two drivers
// (two nodes on one Redis, or two on one memory store) that both hear every turn and both sweep
// play each version exactly once; a provider's illegal move goes nowhere and frees the turn; turns
// that are not the account's, and finished games, are left alone.
import { GameError } from '../../src/service/errors';
import { TurnDriver, type MoveProvider } from '../../src/service/bots/turn-driver';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running } from '../support/app';
import { uniquePrefix } from '../support/redis';

const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each(['memory', 'redis'] as const)('the turn driver (%s)', (store) => {
  let nodes: Running[];
  let drivers: TurnDriver[];
  let human: TestAccount;
  let bot: TestAccount;
  const errors: unknown[] = [];

  beforeAll(async () => {
    const prefix = uniquePrefix('turns');
    const first = await harness.start(store, { prefix, app: { ai: { driver: false } } });
    const second =
      store === 'redis' ? await harness.start(store, { prefix, app: { ai: { driver: false } } }) : first;
    nodes = [first, second];
    human = await signUp(first.app, 'driven-human', 'human');
    bot = await signUp(first.app, 'driven-bot', 'bot');
  });

  afterEach(async () => {
    await Promise.all(drivers.map((d) => d.stop()));
  });

  const newDrivers = () =>
    (drivers = nodes.map(
      (node) =>
        new TurnDriver(node.storage, node.app.service, {
          leaseMs: 10_000,
          // Sweeps here take turns of any age (the live path is what the driver races).
          freshMs: 0,
          onError: (error) => errors.push(error),
        }),
    ));

  /** A game where the bot moves first. */
  async function gameWithBot(): Promise<string> {
    const app = nodes[0]!.app;
    const challenge = await app.services.challenges.create(
      { token: human.token },
      { to: bot.username, kind: 'kalah', starts: 'destination' },
    );
    const accepted = await app.services.challenges.accept({ token: bot.token }, challenge.id);
    return accepted.gameId as string;
  }

  async function waitForVersion(id: string, version: number) {
    const end = Date.now() + 15_000;
    for (;;) {
      const game = await nodes[0]!.app.service.getGame(id);
      if (game.version >= version || game.status === 'finished') return game;
      if (Date.now() > end) throw new Error(`game ${id} stuck at version ${game.version}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('plays each version once although both nodes hear every turn and sweep', async () => {
    newDrivers();
    let asked = 0;
    const provider: MoveProvider = async (_game, legal) => {
      asked++;
      return legal[legal.length - 1] as string;
    };
    await Promise.all(drivers.map((d) => d.register(bot.id, provider)));
    const id = await gameWithBot();
    let game = await waitForVersion(id, 1);
    for (let turn = 0; turn < 6 && game.status === 'ongoing'; turn++) {
      if (game.toMove === 1) {
        game = await nodes[1]!.app.service.submitMove(id, game.legalMoves[0] as string, {
          credential: { token: human.token },
          expectedVersion: game.version,
        });
      }
      // Both nodes also sweep and reconsider the game while the turn is being played.
      await Promise.all(drivers.flatMap((d) => [d.sweep(), d.consider(id, bot.id)]));
      game = await waitForVersion(id, game.version + 1);
    }
    // The bot's turn the last wait may have left (after the human's move) is played before counting:
    // else a thought in flight would count without its move.
    while (game.status === 'ongoing' && game.toMove === 0) game = await waitForVersion(id, game.version + 1);
    const moves = game.moves;
    expect(moves.map((m) => m.ply)).toEqual(moves.map((_, i) => i + 1));
    // One thought per bot turn: the claim kept the other node (and the repeats) off it.
    expect(asked).toBe(moves.filter((m) => m.seat === 0).length);
    expect(errors).toEqual([]);
  });

  it('sends an illegal move nowhere, reports it, and frees the turn for the next try', async () => {
    newDrivers();
    const [driver] = drivers;
    await driver!.register(bot.id, async () => 'not-a-move');
    const id = await gameWithBot();
    expect(await driver!.consider(id, bot.id)).toBe(false);
    const error = errors.pop();
    expect(error).toBeInstanceOf(GameError);
    expect((error as GameError).code).toBe('ILLEGAL_MOVE');
    expect((await nodes[0]!.app.service.getGame(id)).version).toBe(0);
    await driver!.register(bot.id, async (_game, legal) => legal[0] as string);
    expect(await driver!.sweep()).toBeGreaterThanOrEqual(1);
    expect((await nodes[0]!.app.service.getGame(id)).moves).toHaveLength(1);
  });

  it('leaves alone the turns of others and finished games', async () => {
    newDrivers();
    const [driver] = drivers;
    let asked = 0;
    await driver!.register(bot.id, async (_game, legal) => {
      asked++;
      return legal[0] as string;
    });
    const app = nodes[0]!.app;
    const challenge = await app.services.challenges.create(
      { token: human.token },
      { to: bot.username, kind: 'oware', starts: 'challenger' },
    );
    const id = (await app.services.challenges.accept({ token: bot.token }, challenge.id)).gameId as string;
    // The human's turn: nothing to do.
    expect(await driver!.consider(id, bot.id)).toBe(false);
    await app.services.writer.apply(id, { type: 'resign' }, { credential: { token: human.token } });
    expect(await driver!.consider(id, bot.id)).toBe(false);
    await driver!.sweep();
    expect(asked).toBe(0);
    expect((await app.service.getGame(id)).moves).toHaveLength(0);
  });
});
