import type { AiPool } from '../../ai/pool';
import type { SearchResult, SolvedValue } from '../../ai/types';
import type { RateLimiter, Storage } from '../../store/store';
import { aiEngineFor, searchPosition, seedOf } from './ai-games';
import type { Authenticator, Credential } from '../accounts/auth';
import { GameError } from '../errors';
import type { GameService } from '../game/service';
import { addressBucket } from '../accounts/quotas';
import { readPosition } from '../game/start';

// Analysis of any position: the best move, its principal variation, a score, and for positions
// the search solved exactly, the game-theoretic value. It runs in the AI pool (ai/pool.ts), counted
// against its own rate limit (not the request limits: one analysis costs far more than a move)
// and the pool's per-caller cap.

/** The deepest analysis asked for by depth. */
export const MAX_ANALYSIS_DEPTH = 30;
/** The analysis time when neither depth nor time is given (ms). */
export const DEFAULT_ANALYSIS_MS = 1000;

export interface AnalysisLimits {
  /** The longest analysis (AI_ANALYSIS_MAX_MS). */
  readonly maxTimeMs: number;
  /** Analyses per window per account (or per address without one) (AI_ANALYSIS_PER_MINUTE). */
  readonly perMinute: number;
}

export const DEFAULT_ANALYSIS_LIMITS: AnalysisLimits = { maxTimeMs: 5000, perMinute: 30 };

export interface AnalysisInput {
  readonly kind?: string;
  readonly options?: unknown;
  /** A position in the game's notation; with neither it nor gameId, the start position. */
  readonly position?: string | null;
  /** The current position of this game (with its history); its kind and options. */
  readonly gameId?: string | null;
  readonly depth?: number | null;
  readonly timeMs?: number | null;
}

export interface AnalysisView {
  readonly kind: string;
  /** The position analysed (canonical notation). */
  readonly position: string;
  readonly bestMove: string;
  readonly pv: readonly string[];
  readonly score: number;
  readonly solved: SolvedValue | null;
  readonly depth: number;
  readonly nodes: number;
  readonly timeMs: number;
}

export class AnalysisService {
  private readonly limiter: RateLimiter;

  constructor(
    storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly pool: AiPool,
    readonly limits: AnalysisLimits = DEFAULT_ANALYSIS_LIMITS,
  ) {
    this.limiter = storage.limiter({ name: 'analysis', points: limits.perMinute, windowSeconds: 60 });
  }

  async analyze(credential: Credential, input: AnalysisInput): Promise<AnalysisView> {
    const caller = await this.auth.identify(credential);
    // An account counts as itself and as its address (so accounts made on one address share the
    // address's analyses); the account is the owner its searches queue as.
    const address = credential.ip === undefined ? [] : [`ip:${addressBucket(credential.ip)}`];
    const who = caller.kind === 'account' ? [`account:${caller.account.id}`, ...address] : address;
    if (who.length === 0) who.push('ip:unknown');
    const { depth, timeMs } = this.bounds(input);
    const request = await this.position(input, credential);
    for (const key of who) {
      const verdict = await this.limiter.consume(key);
      if (!verdict.allowed) {
        const retryAfterSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
        throw new GameError(
          'RATE_LIMITED',
          `At most ${this.limits.perMinute} analyses a minute per caller and per address; retry in ${retryAfterSeconds} s`,
          { policy: 'analysis', retryAfterSeconds },
        );
      }
    }
    const result: SearchResult = await this.pool.analyze(who, {
      ...request.search,
      ...(depth === undefined ? {} : { depth }),
      timeMs,
      seed: seedOf(request.position, request.search.moves.length),
    });
    return {
      kind: request.search.kind,
      position: request.position,
      bestMove: result.best,
      pv: result.pv,
      score: result.score,
      solved: result.solved ?? null,
      depth: result.depth,
      nodes: result.nodes,
      timeMs: result.timeMs,
    };
  }

  /** Depth and time, within the documented maxima (INVALID_INPUT beyond). */
  private bounds(input: AnalysisInput): { depth?: number; timeMs: number } {
    const { depth, timeMs } = input;
    if (depth !== undefined && depth !== null) {
      if (!Number.isInteger(depth) || depth < 1 || depth > MAX_ANALYSIS_DEPTH) {
        throw new GameError('INVALID_INPUT', `depth must be a whole number from 1 to ${MAX_ANALYSIS_DEPTH}`, {
          field: 'depth',
          max: MAX_ANALYSIS_DEPTH,
        });
      }
    }
    if (timeMs !== undefined && timeMs !== null) {
      if (!Number.isInteger(timeMs) || timeMs < 1 || timeMs > this.limits.maxTimeMs) {
        throw new GameError(
          'INVALID_INPUT',
          `timeMs must be a whole number from 1 to ${this.limits.maxTimeMs}`,
          {
            field: 'timeMs',
            max: this.limits.maxTimeMs,
          },
        );
      }
      return { ...(depth == null ? {} : { depth }), timeMs };
    }
    // A depth alone still stops at the longest analysis.
    return depth == null ? { timeMs: DEFAULT_ANALYSIS_MS } : { depth, timeMs: this.limits.maxTimeMs };
  }

  private async position(input: AnalysisInput, credential: Credential) {
    if (input.gameId !== undefined && input.gameId !== null) {
      if (input.position !== undefined && input.position !== null) {
        throw new GameError('INVALID_INPUT', 'Give position or gameId, not both', { field: 'position' });
      }
      // Whoever may read a game (GET /games/{id}; see game/audience.ts) may analyse it.
      const game = await this.games.getGame(input.gameId, credential);
      if (game.status === 'finished') {
        throw new GameError('GAME_OVER', 'The game is over: there is no move to analyse', {
          result: game.result,
        });
      }
      const engine = aiEngineFor(this.games, game.kind);
      return { search: searchPosition(engine, game), position: game.position };
    }
    if (input.kind === undefined) {
      throw new GameError('INVALID_INPUT', 'kind is required without a gameId', { field: 'kind' });
    }
    const engine = aiEngineFor(this.games, input.kind);
    const options = this.games.parseOptions(engine, input.options);
    const position =
      input.position === undefined || input.position === null
        ? engine.formatState(engine.setup(options, 0))
        : readPosition(engine, options, input.position).position;
    return { search: { kind: engine.kind, options, start: position, moves: [] }, position };
  }
}
