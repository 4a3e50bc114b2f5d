// The bot bridge: plays an engine program (see engine.ts and docs/bridge.md) as a bot account. It
// declares the account's bot policy, accepts the challenges the server lets through it, plays every
// game at once (one chain of work per game), and follows the feed with the SDK, which reconnects
// and resumes after the last event; moves carry If-Match and an Idempotency-Key, so none is lost or
// played twice.
import { createBoardhost, isBoardhostError, isTransient, ok, type GameHead, type GameKind } from '../index';
import type { components } from '../generated/openapi';
import { sleep } from '../http';
import { Engine, type Log } from './engine';

type BotPolicy = components['schemas']['BotPolicyBody'];

export interface BridgeOptions {
  readonly server: string;
  readonly token: string;
  /** The engine program, run by the shell. */
  readonly engine: string;
  /** The bot policy to declare (PUT /account/bot); omitted: keep the account's. */
  readonly policy?: BotPolicy;
  /** Challenge this account once the feed is open, to one game of each kind (default: unlimited time). */
  readonly challenge?: {
    readonly to: string;
    readonly kinds: readonly GameKind[];
    readonly timeControl?: components['schemas']['TimeControlInput'];
  };
  /** Stop after this many games have finished (default: never). */
  readonly games?: number;
  /** The longest the engine may think, in ms (default 10 s; less when the clock has less). */
  readonly moveTimeoutMs?: number;
  /** Each finished game, as `<kind> <id>: <winner or draw> (<reason>)`. */
  readonly onResult?: (line: string) => void;
  readonly log?: Log;
  readonly signal?: AbortSignal;
}

export async function runBridge(options: BridgeOptions): Promise<void> {
  const log = options.log ?? ((m: string) => console.error(m));
  const { api, consume, move } = createBoardhost({ baseUrl: options.server, token: options.token });
  const me = (await ok(api.GET('/api/v1/account'))).id;
  if (options.policy) await ok(api.PUT('/api/v1/account/bot', { body: options.policy }));
  const engine = new Engine(options.engine, log);
  await engine.start();
  const stop = new AbortController();
  options.signal?.addEventListener('abort', () => stop.abort(), { once: true });

  const newest = new Map<string, GameHead>(); // the newest version seen of each game
  const chains = new Map<string, Promise<void>>(); // one chain of work per game, in order
  const wanted = options.games ?? Infinity;
  let finished = 0;
  let challenged = false;

  /** Seen a version of a game: think on the newest one when its chain gets to it. */
  function seen(game: GameHead) {
    const known = newest.get(game.id);
    if (known && known.version >= game.version) return;
    newest.set(game.id, game);
    const chain = (chains.get(game.id) ?? Promise.resolve()).then(() => turn(game.id));
    chains.set(game.id, chain);
    void chain.finally(() => chains.get(game.id) === chain && chains.delete(game.id));
  }

  /** Plays in a game while it is our turn in the newest version seen; transient failures retried. */
  async function turn(id: string): Promise<void> {
    for (let attempt = 0; !stop.signal.aborted; attempt++) {
      const game = newest.get(id);
      const seat = game?.toMove ?? null;
      if (!game || game.status !== 'ongoing' || seat === null || game.seats[seat]?.account !== me) return;
      try {
        const clock = game.clock;
        const timeMs =
          clock === null
            ? undefined
            : (clock.remainingMs[seat] ?? 0) -
              (clock.runningSince ? Date.now() - Date.parse(clock.runningSince) : 0);
        const limit = Math.min(options.moveTimeoutMs ?? 10_000, timeMs === undefined ? Infinity : timeMs / 2);
        const answer = await engine.bestMove(
          {
            kind: game.kind,
            position: game.position,
            legal: game.legalMoves,
            ...(timeMs === undefined ? {} : { timeMs }),
          },
          Math.max(50, limit),
        );
        if (newest.get(id) !== game) continue; // a newer version came meanwhile: think on that
        const after = await move(game, answer.move);
        if ((newest.get(id)?.version ?? -1) < after.version) newest.set(id, after);
      } catch (error) {
        if (
          isBoardhostError(error, 'VERSION_CONFLICT', 'GAME_OVER', 'TIMEOUT', 'NOT_YOUR_TURN') ||
          isTransient(error)
        ) {
          if (isTransient(error))
            await sleep(Math.min(10_000, 500 * 2 ** attempt), stop.signal).catch(() => {});
          // The game changed under us, or the server was away: read it again and decide on that.
          const now = await ok(api.GET('/api/v1/games/{id}', { params: { path: { id } } })).catch(
            () => undefined,
          );
          if (now && (newest.get(id)?.version ?? -1) <= now.version) newest.set(id, now);
          continue;
        }
        log(`game ${id}: ${(error as Error).message}; leaving this game`);
        return;
      }
    }
  }

  async function accept(id: string) {
    await ok(api.POST('/api/v1/challenges/{id}/accept', { params: { path: { id } } })).catch((error) => {
      // Gone meanwhile, or the bot is full (the challenge stays open): nothing to do.
      if (!isBoardhostError(error, 'CHALLENGE_CLOSED', 'TOO_MANY_GAMES')) throw error;
      log(`challenge ${id}: ${(error as Error).message}`);
    });
  }

  await consume(
    async (event) => {
      if (event.type === 'ready') {
        if (event.resync) {
          const challenges = await ok(api.GET('/api/v1/challenges'));
          for (const c of challenges.items ?? [])
            if (c.destination === me && c.status === 'open') await accept(c.id);
          const query = { account: me, status: 'ongoing' as const, limit: 100 };
          for (const game of (await ok(api.GET('/api/v1/games', { params: { query } }))).items) seen(game);
        }
        if (options.challenge && !challenged) {
          for (const kind of options.challenge.kinds) {
            const { to, timeControl } = options.challenge;
            await ok(
              api.POST('/api/v1/challenges', { body: { to, kind, ...(timeControl ? { timeControl } : {}) } }),
            );
          }
          challenged = true;
        }
      } else if (event.type === 'challenge.received') {
        await accept(event.data.challenge.id);
      } else if (event.type === 'game.finished') {
        const { game, result } = event.data;
        seen(game);
        options.onResult?.(`${game.kind} ${game.id}: ${result.winnerName ?? 'draw'} (${result.reason})`);
        if (++finished >= wanted) return true;
      } else if (event.type !== 'rating.updated' && 'game' in event.data) {
        seen(event.data.game);
      }
    },
    {
      signal: stop.signal,
      onReconnect: (e) => log(`feed: ${(e as Error).message}; reconnecting`),
      onRetry: (e) => log(`feed: ${(e as Error).message}; retrying`),
    },
  ).finally(async () => {
    stop.abort();
    await Promise.allSettled([...chains.values()]);
    engine.stop();
  });
}
