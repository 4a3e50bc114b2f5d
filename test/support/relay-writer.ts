// A node that writes games and may be killed at any instant (test/store/relay.test.ts): it plays
// `GAMES` games between two accounts at once, each update with a game.moved notice for both, and
// prints `ack <game> <version>` once the store has acknowledged a version. Env: REDIS_URL, PREFIX,
// ACCOUNTS (a,b), GAMES, VERSIONS.
import { createRedisStorage } from '../../src/store/redis';
import { advanced, gameOf } from '../store/store-contract';
import { updateGame } from './update-game';

async function main(): Promise<void> {
  // A short lease: what this node holds when it is killed is free again soon.
  const storage = await createRedisStorage(process.env.REDIS_URL as string, process.env.PREFIX as string, {
    relayLeaseMs: 500,
  });
  const [a, b] = (process.env.ACCOUNTS as string).split(',') as [string, string];
  const games = Number(process.env.GAMES);
  const versions = Number(process.env.VERSIONS);
  await Promise.all(
    Array.from({ length: games }, async (_, g) => {
      let game = gameOf([a, b], { id: `${process.env.PREFIX}g${g}`.replace(/[^A-Za-z0-9]/g, '') });
      await storage.games.create(game);
      for (let v = 1; v <= versions; v++) {
        const next = advanced(game, String(v));
        const at = new Date().toISOString();
        const notice = {
          to: [a, b],
          type: 'game.moved' as const,
          at,
          data: { game: game.id, version: next.version },
        };
        const result = await updateGame(storage.games, next, game.version, undefined, [notice]);
        if (result.status !== 'updated') throw new Error(`unexpected ${result.status}`);
        process.stdout.write(`ack ${game.id} ${next.version}\n`);
        game = next;
      }
    }),
  );
  process.stdout.write('done\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
