import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { GameError } from '../service/errors';
import type { SearchRequest, SearchResult } from './types';

// The searches run off the event loop, in worker threads (piscina), so that thinking never slows
// the moves and reads the API serves. The pool is this node's: `workers` threads, a queue of at
// most `queueMax` analyses waiting, and at most `perAccount` analyses of one caller running or
// waiting at once. AI moves in games are not refused by the queue bound (a game's turn must be
// played; their number is bounded by the games themselves) but wait in the same queue.

export interface AiPoolOptions {
  /** Worker threads (AI_WORKERS; default max(1, cores - 1)). */
  readonly workers?: number;
  /** Analyses waiting for a thread at most (AI_QUEUE_MAX); more answer 503 AI_BUSY. */
  readonly queueMax?: number;
  /** Analyses of one caller running or waiting at once (AI_MAX_PER_ACCOUNT); more answer 429. */
  readonly perAccount?: number;
  /** Another worker module (exporting `run`, as worker.ts does): tests use slow or stuck ones. */
  readonly filename?: string;
}

export const DEFAULT_AI_POOL: Required<Omit<AiPoolOptions, 'filename'>> = {
  workers: Math.max(1, availableParallelism() - 1),
  queueMax: 64,
  perAccount: 2,
};

/** Seconds a refused caller is told to wait (Retry-After). */
const RETRY_AFTER_SECONDS = 1;

/**
 * The worker's file: the built one beside this file (dist/ai/worker.js), else the TypeScript source
 * (tests, `npm run dev`), which the worker compiles on load with @swc-node/register.
 */
function workerFile(given?: string): { filename: string; execArgv: string[] } {
  const js = join(__dirname, 'worker.js');
  const filename = given ?? (existsSync(js) ? js : join(__dirname, 'worker.ts'));
  return { filename, execArgv: filename.endsWith('.ts') ? ['--require', '@swc-node/register'] : [] };
}

export class AiPool {
  private pool: Piscina | undefined;
  private readonly options: Required<Omit<AiPoolOptions, 'filename'>> & AiPoolOptions;
  /** Analyses running or waiting, per caller. */
  private readonly running = new Map<string, number>();
  private closed = false;
  private tasks = 0;

  constructor(options: AiPoolOptions = {}) {
    this.options = { ...DEFAULT_AI_POOL, ...options };
  }

  /** The sizes this pool was made with. */
  get limits(): Required<Omit<AiPoolOptions, 'filename'>> {
    return this.options;
  }

  /** Searches asked for and not answered yet (running or waiting). */
  get inFlight(): number {
    return this.tasks;
  }

  /** Searches waiting for a thread now (each thread runs one search at a time). */
  get queued(): number {
    return Math.max(0, this.tasks - this.options.workers);
  }

  /** A search for a game's turn: never refused for load (it waits its turn in the queue). */
  move(request: SearchRequest): Promise<SearchResult> {
    return this.run(request);
  }

  /**
   * An analysis for `caller` (an account id or an address): 429 TOO_MANY_ANALYSES past the caller's
   * cap, 503 AI_BUSY when the queue is full.
   */
  async analyze(caller: string, request: SearchRequest): Promise<SearchResult> {
    const mine = this.running.get(caller) ?? 0;
    if (mine >= this.options.perAccount) {
      throw new GameError(
        'TOO_MANY_ANALYSES',
        `At most ${this.options.perAccount} analyses at once per caller; retry when one has answered`,
        { max: this.options.perAccount, retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
    if (this.queued >= this.options.queueMax) {
      throw new GameError('AI_BUSY', 'The analysis queue is full; retry shortly', {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
    this.running.set(caller, mine + 1);
    try {
      return await this.run(request);
    } finally {
      const left = (this.running.get(caller) ?? 1) - 1;
      if (left <= 0) this.running.delete(caller);
      else this.running.set(caller, left);
    }
  }

  /** Ends the threads (a search running is abandoned); later calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  private async run(request: SearchRequest): Promise<SearchResult> {
    if (this.closed) throw new GameError('AI_BUSY', 'The server is shutting down', { retryAfterSeconds: 2 });
    this.tasks++;
    try {
      return (await this.threads().run(request, { name: 'run' })) as SearchResult;
    } catch (error) {
      if (error instanceof GameError) throw error;
      if (this.closed) {
        throw new GameError('AI_BUSY', 'The server is shutting down', { retryAfterSeconds: 2 });
      }
      throw new GameError('INTERNAL', `The search failed: ${(error as Error).message}`);
    } finally {
      this.tasks--;
    }
  }

  /** Threads start with the first search: a node that never thinks starts none. */
  private threads(): Piscina {
    if (!this.pool) {
      const { filename, execArgv } = workerFile(this.options.filename);
      this.pool = new Piscina({
        filename,
        execArgv,
        minThreads: 0,
        maxThreads: this.options.workers,
        idleTimeout: 60_000,
      });
    }
    return this.pool;
  }
}
