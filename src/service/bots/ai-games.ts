import { randomBytes } from 'node:crypto';
import { aiPlays, levelBudget } from '../../ai/index';
import type { AiPool } from '../../ai/pool';
import { AI_LEVELS, type AiLevel, type SearchRequest } from '../../ai/types';
import type { AnyEngine } from '../../engines/engine';
import type { Side } from '../../engines/types';
import { appOf, type Storage, type StoredAccount, type StoredGame } from '../../store/store';
import { hashToken, newSeatToken, type Authenticator, type Credential } from '../accounts/auth';
import { GameError } from '../errors';
import { refuseRestricted } from '../accounts/restricted';
import type { CreatedGame, GameService } from '../game/service';
import type { GameView } from '../game/view';
import { once } from '../idempotency';
import { DEFAULT_QUOTAS, gameLimits, tooManyGames, type Quotas } from '../accounts/quotas';
import { casualOnly } from '../ratings/results';
import { startOf } from '../game/start';
import { settingsOf, type GameSettingsInput } from '../game/settings';
import { parseTimeControl, type TimeControlInput } from '../time/control';
import { TurnDeferred, type MoveProvider, type TurnDriver } from './turn-driver';
import { SeatTokenQuotas } from './ai-quotas';
import { addressBucket } from '../accounts/quotas';
import { feature } from '../game/tv';
import { slimNotice } from '../delivery/feed-events';

// The built-in AI opponents. Each level is its own bot account, `ai-level-1` … `ai-level-8`: an
// ordinary account seated in ordinary games, so AI games are stored, listed, exported (and later
// rated) like any other, each level with its own record; the level needs no field in the game.
// The accounts are made at start-up by whichever node gets there first; nobody can sign up under
// these names. Their turns are played by the turn driver (turn-driver.ts) with the search pool.

/** The username of the AI account of a level. */
export function aiUsername(level: AiLevel): string {
  return `ai-level-${level}`;
}

/** The level of an AI account's id, or undefined for any other account. */
export function aiLevelOf(account: string | null | undefined): AiLevel | undefined {
  const match = /^ai-level-([1-8])$/.exec(account ?? '');
  return match ? (Number(match[1]) as AiLevel) : undefined;
}

/** Usernames reserved for the AI accounts (sign-up refuses them, whatever their case). */
export function isAiUsername(username: string): boolean {
  return /^ai-level-\d+$/i.test(username);
}

/** Of the time left on the AI's clock, the most one move may use (a game of ~40 moves to go). */
export const CLOCK_FRACTION = 1 / 40;
/** A move never takes less than this, however short the clock (ms). */
const MIN_MOVE_MS = 5;

export interface AiChallengeInput {
  readonly kind: string;
  readonly level: number;
  readonly options?: unknown;
  readonly timeControl?: TimeControlInput | null;
  /** The caller's seat: a seat name of the kind, "0"/"1", or "random" (default). */
  readonly color?: string;
  readonly position?: string | null;
  /** AI games are casual: true is refused (RATED_NOT_ALLOWED). */
  readonly rated?: boolean | null;
  /** What the game allows (takebacks: the AI accepts each at once; chat). */
  readonly settings?: GameSettingsInput | null;
}

export interface AiGameInput {
  readonly kind: string;
  readonly level: number;
  readonly options?: unknown;
  readonly timeControl?: TimeControlInput | null;
  /** The seat the seat token holds (the AI takes the other): a seat name, "0"/"1" or "random" (default). */
  readonly seat?: string;
  readonly position?: string | null;
  /** AI games are casual: true is refused (RATED_NOT_ALLOWED). */
  readonly rated?: boolean | null;
  /** What the game allows (takebacks: the AI accepts each at once; chat). */
  readonly settings?: GameSettingsInput | null;
}

export class AiGames {
  /** The address's counts of seat-token games against the AI. */
  private readonly seatTokens: SeatTokenQuotas;
  /** Per owner, the AI turns waiting in their games (the pool holds the owner's most): game → AI account. */
  private readonly waiting = new Map<string, Map<string, string>>();
  private driver: TurnDriver | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly pool: AiPool,
    private readonly now: () => Date = () => new Date(),
    private readonly quotas: Quotas = DEFAULT_QUOTAS,
  ) {
    // The same daily count as GameService.createGame: seat-token games against the AI count too.
    this.seatTokens = new SeatTokenQuotas(storage, quotas, () => this.now().getTime());
  }

  /** Makes the AI accounts that do not exist yet (every node may call this; one wins each). */
  async ensureAccounts(): Promise<void> {
    await Promise.all(
      AI_LEVELS.map(async (level) => {
        const id = aiUsername(level);
        if (await this.storage.accounts.getAccount(id)) return;
        const at = this.now().toISOString();
        const account: StoredAccount = { id, username: id, kind: 'bot', bot: aiPolicy(), createdAt: at };
        // A first token is required by the store; nobody ever sees its secret.
        const secret = `bhp_${randomBytes(24).toString('base64url')}`;
        await this.storage.accounts.createAccount(account, {
          id: randomBytes(9).toString('base64url'),
          account: id,
          hash: hashToken(secret),
          scopes: ['bot:play', 'game:read'],
          label: 'built-in AI',
          createdAt: at,
          revokedAt: null,
        });
      }),
    );
  }

  /** Registers every level's mover with the driver. */
  async drive(driver: TurnDriver): Promise<void> {
    this.driver = driver;
    await Promise.all(AI_LEVELS.map((level) => driver.register(aiUsername(level), this.provider(level))));
  }

  /**
   * Makes the AI accounts, then (with `driver`) registers the movers and starts the driver's sweep.
   * Resolves after the first attempt; a failed one (a server starts while its store is down, like
   * every other part) is retried every `retryMs` in the background. Resolves with the function
   * that stops trying.
   */
  async start(
    driver: TurnDriver | undefined,
    onError: (error: unknown) => void,
    retryMs = 1000,
  ): Promise<() => void> {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const attempt = async (): Promise<void> => {
      try {
        await this.ensureAccounts();
        if (stopped || !driver) return;
        await this.drive(driver);
        driver.start();
      } catch (error) {
        onError(error);
        if (!stopped) timer = setTimeout(() => void attempt(), retryMs).unref();
      }
    };
    await attempt();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  /**
   * The move provider of a level: a search within the level's budget, never more than
   * CLOCK_FRACTION of the time left, seeded by the game and ply (same game, same answer). The
   * search queues as the game's owner (aiOwnerOf); when the owner already has its most turns in
   * the pool, the turn waits in its game (TurnDeferred) and is played when one of them is done.
   */
  provider(level: AiLevel): MoveProvider {
    return async (game, legalMoves, timeLeftMs, stored) => {
      const owner = aiOwnerOf(stored);
      if (!this.pool.hasTurnRoom(owner)) {
        // Waits once the driver has let go of the turn; room may have come meanwhile: resume.
        throw new TurnDeferred(() => {
          this.wait(owner, game.id, aiUsername(level));
          this.resume(owner);
        });
      }
      const budget = levelBudget(level, game.kind).timeMs;
      const timeMs =
        timeLeftMs === null ? budget : Math.max(MIN_MOVE_MS, Math.min(budget, timeLeftMs * CLOCK_FRACTION));
      let result;
      try {
        result = await this.pool.move(owner, {
          ...searchPosition(this.games.engineFor(game.kind), game),
          level,
          timeMs: Math.floor(timeMs),
          seed: seedOf(game.id, game.ply),
        });
      } finally {
        this.resume(owner);
      }
      if (!legalMoves.includes(result.best)) {
        // The write path parses and checks it anyway; a notation it does not know is a bug to report.
        throw new GameError('INTERNAL', `The AI chose ${result.best}, not a legal move of ${game.id}`);
      }
      return result.best;
    };
  }

  /** Remembers a turn left waiting in its game. */
  private wait(owner: string, gameId: string, account: string): void {
    let games = this.waiting.get(owner);
    if (!games) this.waiting.set(owner, (games = new Map()));
    games.set(gameId, account);
  }

  /**
   * One of `owner`'s turns left the pool: plays its oldest waiting turn, if any (through the driver,
   * which claims it as any turn; one already played or gone is skipped for the next). A node that
   * stops forgets its waiting turns: the driver's sweep, here or on another node, finds them.
   */
  private resume(owner: string): void {
    const games = this.waiting.get(owner);
    const next = games?.entries().next().value;
    if (!games || !next || !this.driver || !this.pool.hasTurnRoom(owner)) return;
    const [gameId, account] = next;
    games.delete(gameId);
    if (games.size === 0) this.waiting.delete(owner);
    this.driver
      .consider(gameId, account)
      .catch(() => false)
      .then((played) => {
        if (!played) this.resume(owner);
      });
  }

  /** A started game between the caller's account and the AI of `level`. */
  async challenge(
    credential: Credential,
    input: AiChallengeInput,
    options: { idempotencyKey?: string } = {},
  ): Promise<GameView> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    refuseRestricted(account);
    const call = {
      scope: `account:${account.id}`,
      key: options.idempotencyKey,
      operation: 'challengeAi',
      input,
    };
    return once(this.storage.idempotency, call, async () => {
      const level = parseLevel(input.level);
      const prepared = this.prepare(input, input.color, level, account.id);
      // The human's app and pool (the AI is everyone's opponent).
      const game: StoredGame = { ...prepared.game, ...(await this.games.audience(appOf(account))) };
      await this.games.countCreated(account.id);
      const at = game.createdAt;
      const head = this.games.headView(game);
      const result = await this.storage.games.create(
        game,
        [slimNotice({ to: [account.id, aiUsername(level)], type: 'game.started', at, data: { game: head } })],
        // Only the caller's cap: the AI plays any number of games.
        gameLimits([account], this.quotas),
      );
      if (result.status === 'too-many-games') throw tooManyGames(account, this.quotas);
      this.games.time.announce(game);
      await feature(this.storage, game);
      return this.games.view(game);
    });
  }

  /** A game held by one seat token against the AI of `level` (counts in the address's daily games). */
  async createGame(input: AiGameInput, options: { ip?: string; idempotencyKey?: string } = {}) {
    const call = {
      scope: `ip:${options.ip ?? 'unknown'}`,
      key: options.idempotencyKey,
      operation: 'createAiGame',
      input,
    };
    return once(this.storage.idempotency, call, async (): Promise<CreatedGame> => {
      const level = parseLevel(input.level);
      const token = newSeatToken();
      const prepared = this.prepare(input, input.seat, level, null, token.hash);
      const seat = prepared.seat;
      const game: StoredGame =
        options.ip === undefined
          ? prepared.game
          : { ...prepared.game, owner: `ip:${addressBucket(options.ip)}` };
      const giveBack = await this.seatTokens.take(options.ip, game.id, true);
      try {
        const at = game.createdAt;
        await this.storage.games.create(game, [
          slimNotice({
            to: [aiUsername(level)],
            type: 'game.started',
            at,
            data: { game: this.games.headView(game) },
          }),
        ]);
      } catch (error) {
        await giveBack().catch(() => undefined);
        throw error;
      }
      this.games.time.announce(game);
      await feature(this.storage, game);
      const engine = this.games.engineFor(game.kind);
      return {
        game: this.games.view(game),
        seatTokens: [{ seat, name: engine.seatNames[seat] as string, token: token.token }],
      };
    });
  }

  /** The game document: the player (an account, or a seat token's hash) in `color`, the AI opposite. */
  private prepare(
    input: AiChallengeInput | AiGameInput,
    color: string | undefined,
    level: AiLevel,
    player: string | null,
    seatTokenHash = '',
  ): { game: StoredGame; seat: Side } {
    casualOnly(input.rated);
    const engine = aiEngineFor(this.games, input.kind);
    const options = this.games.parseOptions(engine, input.options);
    const start = startOf(engine, options, { position: input.position ?? null });
    const seat = seatOf(engine, color);
    const ai = aiUsername(level);
    const accounts: [string | null, string | null] = seat === 0 ? [player, ai] : [ai, player];
    const hashes: [string, string] = seat === 0 ? [seatTokenHash, ''] : ['', seatTokenHash];
    const game = this.games.newGame({
      kind: engine.kind,
      options,
      ...start,
      accounts,
      seatTokenHashes: hashes,
      timeControl: parseTimeControl(input.timeControl),
      at: this.now().toISOString(),
      settings: settingsOf(input.settings),
    });
    return { game, seat };
  }
}

/** What a search needs of a game: its start position and the moves since (repetition history). */
export function searchPosition(
  engine: AnyEngine,
  game: Pick<GameView, 'kind' | 'options' | 'initialPosition' | 'moves' | 'toMove'>,
): Pick<SearchRequest, 'kind' | 'options' | 'start' | 'moves'> {
  const first = (game.moves[0]?.seat ?? game.toMove ?? 0) as Side;
  const start = game.initialPosition ?? engine.formatState(engine.setup(game.options, first));
  return { kind: game.kind, options: game.options, start, moves: game.moves.map((m) => m.notation) };
}

/**
 * Who an AI game's turns count against in the AI pool: the address that made a seat-token game,
 * else the account playing the AI (each game its own owner when neither is known).
 */
export function aiOwnerOf(game: Pick<StoredGame, 'id' | 'owner' | 'seats'>): string {
  if (game.owner) return game.owner;
  const player = game.seats.find((s) => s.account !== null && aiLevelOf(s.account) === undefined);
  return player?.account ? `account:${player.account}` : `game:${game.id}`;
}

/** A 32-bit seed from a game and a ply. */
export function seedOf(id: string, ply: number): number {
  let h = 2166136261;
  for (const c of `${id}:${ply}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

export function parseLevel(level: unknown): AiLevel {
  if (!(AI_LEVELS as readonly unknown[]).includes(level)) {
    throw new GameError('INVALID_INPUT', 'level must be a whole number from 1 to 8', { field: 'level' });
  }
  return level as AiLevel;
}

/** The player's seat: a seat name, "0"/"1", or random (default). */
function seatOf(engine: AnyEngine, color: string | undefined): Side {
  const text = (color ?? 'random').trim().toLowerCase();
  if (text === 'random') return (randomBytes(1)[0]! & 1) as Side;
  if (text === '0' || text === '1') return Number(text) as Side;
  const byName = engine.seatNames.indexOf(text);
  if (byName === 0 || byName === 1) return byName;
  throw new GameError(
    'INVALID_INPUT',
    `color must be ${engine.seatNames.map((n) => `"${n}"`).join(', ')}, "random", "0" or "1"`,
    { field: 'color' },
  );
}

/**
 * The engine of a kind the AI plays: UNKNOWN_GAME_KIND for a kind not hosted, INVALID_INPUT for a
 * hosted kind the AI has no entry for (src/ai/kinds.ts; a kind registered beside the built-in ones).
 */
export function aiEngineFor(games: GameService, kind: string): AnyEngine {
  const engine = games.engineFor(kind);
  if (!aiPlays(engine.kind)) {
    throw new GameError('INVALID_INPUT', `The built-in AI does not play ${engine.kind}`, { field: 'kind' });
  }
  return engine;
}

/**
 * The AI is challenged through /challenges/ai only: a plain challenge to it is declined at once
 * (reason `kind`) instead of waiting for an accept that never comes.
 */
function aiPolicy(): StoredAccount['bot'] {
  return { kinds: [], timeControls: [], options: {}, maxGames: 1_000_000 };
}
