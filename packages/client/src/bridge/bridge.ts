// The bot bridge: plays an engine program (see engine.ts and docs/bridge.md) as a bot account. It
// declares the account's bot policy, accepts the challenges the server lets through it, plays every
// game at once (one chain of work per game), and follows the feed with the SDK, which reconnects
// and resumes after the last event; moves carry If-Match and an Idempotency-Key, so none is lost or
// played twice. It may challenge an account, or play the built-in AI (challenge.ts), first.
import {
  createBoardhost,
  isBoardhostError,
  isTransient,
  ok,
  type Challenge,
  type GameHead,
  type GameKind,
} from '../index';
import type { components } from '../generated/openapi';
import { sleep } from '../http';
import { challengeHead, challengeTarget, declinedLine, refusal } from './challenge';
import { Engine, type Log } from './engine';

type BotPolicy = components['schemas']['BotPolicyBody'];

/**
 * What runBridge rejects with when a challenge it sent was declined (or expired unanswered) and it
 * had nothing left to play (no game going on, no challenge of its own still open): the games it
 * was asked for cannot all come. The CLI exits with status 3.
 */
export class ChallengeDeclined extends Error {
  override readonly name = 'ChallengeDeclined';
  constructor(readonly declined: readonly Challenge[]) {
    super(
      `stopping: ${declined.length} challenge${declined.length === 1 ? ' was' : 's were'} declined ` +
        `(${declined.map(refusal).join(', ')}) and nothing is left to play`,
    );
  }
}

export interface BridgeOptions {
  readonly server: string;
  readonly token: string;
  /** The engine program, run by the shell. */
  readonly engine: string;
  /** The bot policy to declare (PUT /account/bot); omitted: keep the account's. */
  readonly policy?: BotPolicy;
  /**
   * Challenge this account once the feed is open, to one game of each kind (default: unlimited
   * time). `ai-level-N` (N 1–8) is the built-in AI: its games start at once (POST /challenges/ai).
   */
  readonly challenge?: {
    readonly to: string;
    readonly kinds: readonly GameKind[];
    readonly timeControl?: components['schemas']['TimeControlInput'];
    /** Against the AI: the bridge's seat (a seat name, "0", "1" or "random", the default). */
    readonly color?: string;
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
  // Before anything else: a bad `ai-level-N` is refused without touching the server.
  const target = options.challenge ? challengeTarget(options.challenge.to) : undefined;
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
  const open = new Set<string>(); // the challenges sent and not answered yet
  const declined = new Map<string, Challenge>(); // the challenges sent and declined (or expired)

  /** A challenge sent: declined ones are logged (once each); accepted ones' games are played. */
  async function answered(challenge: Challenge) {
    if (challenge.status === 'open') {
      if (open.has(challenge.id)) return;
      open.add(challenge.id);
      return log(`${challengeHead(challenge)}: waiting for an answer`);
    }
    const refused = challenge.status === 'declined' || challenge.status === 'expired';
    if (!open.delete(challenge.id) && !refused) return;
    if (refused && !declined.has(challenge.id)) {
      declined.set(challenge.id, challenge);
      log(declinedLine(challenge));
    } else if (challenge.gameId) {
      // Read the game before forgetting the challenge, so that it counts as left to play.
      const path = { id: challenge.gameId };
      seen(await ok(api.GET('/api/v1/games/{id}', { params: { path } })));
    }
  }

  /** Nothing left to play: no game of ours going on, no challenge of ours waiting. */
  function idle(): boolean {
    if (open.size > 0) return false;
    for (const game of newest.values())
      if (game.status === 'ongoing' && game.seats.some((s) => s.account === me)) return false;
    return true;
  }

  /** Sends the challenges of `options.challenge`: to an account, or games against the AI. */
  async function challenge() {
    const { kinds, timeControl, color } = options.challenge!;
    const clock = timeControl ? { timeControl } : {};
    for (const kind of kinds) {
      if (target && 'ai' in target) {
        const body = { kind, level: target.ai, ...clock, ...(color ? { color } : {}) };
        const game = await ok(api.POST('/api/v1/challenges/ai', { body })).catch((error: Error) => {
          throw new Error(`challenge ai-level-${target.ai} (${kind}): ${error.message}`, { cause: error });
        });
        seen(game);
      } else {
        const to = options.challenge!.to;
        await answered(await ok(api.POST('/api/v1/challenges', { body: { to, kind, ...clock } })));
      }
    }
  }

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
          // The answers to our challenges may have been among the events lost.
          for (const id of [...open]) {
            const path = { id };
            await answered(await ok(api.GET('/api/v1/challenges/{id}', { params: { path } })));
          }
        }
        if (options.challenge && !challenged) {
          await challenge();
          challenged = true;
        }
      } else if (event.type === 'challenge.received') {
        await accept(event.data.challenge.id);
      } else if (
        event.type === 'challenge.accepted' ||
        event.type === 'challenge.declined' ||
        event.type === 'challenge.canceled' ||
        event.type === 'challenge.expired'
      ) {
        if (event.data.challenge.challenger === me) await answered(event.data.challenge);
      } else if (event.type === 'game.finished') {
        const { game, result } = event.data;
        seen(game);
        options.onResult?.(`${game.kind} ${game.id}: ${result.winnerName ?? 'draw'} (${result.reason})`);
        if (++finished >= wanted) return true;
      } else if (event.type !== 'rating.updated' && 'game' in event.data) {
        seen(event.data.game);
      }
      // A challenge was declined, and nothing is left to play: the games asked for cannot come.
      return declined.size > 0 && idle();
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
  if (declined.size > 0 && finished < wanted) throw new ChallengeDeclined([...declined.values()]);
}
