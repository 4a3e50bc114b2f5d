import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { GameError } from '../service/errors';
import { levelBudget } from './levels';
import type { SearchRequest, SearchResult } from './types';

// The searches run off the event loop, in worker threads (piscina), so that thinking never slows
// the moves and reads the API serves. The pool is this node's: `workers` threads and a fair queue in
// front of them. Every search belongs to an owner (an account, or a client address's bucket:
// addressBucket in service/accounts/quotas.ts); each owner has its own FIFO and a thread that frees up takes
// the next search of the next owner in turn (round robin), so one owner's flood of searches delays
// another owner's by at most one search per thread. An owner that has waited longest since its last
// search goes first, so a newcomer is next on the first free thread. Short searches (a time cap of
// EXPRESS_MAX_MS or less: levels 1 and 2) may also run on one more thread that long ones never
// take, so a level-1 reply never waits for a level-8 search that cannot be interrupted (with the
// default single thread on a two-core machine it would wait up to 2.5 s). Analyses are refused past `queueMax` waiting
// and past `perAccount` of one caller (account and address each); AI turns of games are never
// refused, but an owner has at most `turnsPerOwner` of them in the pool (hasTurnRoom): the others
// wait in their games (service/bots/ai-games.ts).

export interface AiPoolOptions {
  /** Worker threads (AI_WORKERS; default max(1, cores - 1)). */
  readonly workers?: number;
  /** Analyses waiting for a thread at most (AI_QUEUE_MAX); more answer 503 AI_BUSY. */
  readonly queueMax?: number;
  /** Analyses of one caller running or waiting at once (AI_MAX_PER_ACCOUNT); more answer 429. */
  readonly perAccount?: number;
  /** AI turns of one owner waiting or running in the pool at once (AI_MAX_TURNS_PER_OWNER). */
  readonly turnsPerOwner?: number;
  /** Another worker module (exporting `run`, as worker.ts does): tests use slow or stuck ones. */
  readonly filename?: string;
}

export const DEFAULT_AI_POOL: Required<Omit<AiPoolOptions, 'filename'>> = {
  workers: Math.max(1, availableParallelism() - 1),
  queueMax: 64,
  perAccount: 2,
  turnsPerOwner: 2,
};

/** A search whose time cap is at most this (ms) is short: it may take the express thread. */
export const EXPRESS_MAX_MS = 100;

/** A search waiting for a thread. */
interface Task {
  readonly request: SearchRequest;
  /** Short enough for the express thread. */
  readonly express: boolean;
  readonly resolve: (result: SearchResult) => void;
  readonly reject: (error: unknown) => void;
}

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
  /** Analyses running or waiting, per caller (account and address keys alike). */
  private readonly running = new Map<string, number>();
  /** AI turns running or waiting, per owner. */
  private readonly turns = new Map<string, number>();
  /** Per owner with searches waiting, its FIFO; the map's order is the round robin's. */
  private readonly waiting = new Map<string, Task[]>();
  private waitingCount = 0;
  /** Searches running, and of those the long ones (at most `workers`; short ones may take one more). */
  private active = 0;
  private activeLong = 0;
  /** When each owner's last search started (a dispatch count); owners never served count as 0. */
  private readonly served = new Map<string, number>();
  private dispatches = 0;
  private closed = false;

  constructor(options: AiPoolOptions = {}) {
    this.options = { ...DEFAULT_AI_POOL, ...options };
  }

  /** The sizes this pool was made with. */
  get limits(): Required<Omit<AiPoolOptions, 'filename'>> {
    return this.options;
  }

  /** Searches asked for and not answered yet (running or waiting). */
  get inFlight(): number {
    return this.active + this.waitingCount;
  }

  /** Searches waiting for a thread now (each thread runs one search at a time). */
  get queued(): number {
    return this.waitingCount;
  }

  /** Whether `owner` may put another AI turn in the pool now (fewer than turnsPerOwner there). */
  hasTurnRoom(owner: string): boolean {
    return (this.turns.get(owner) ?? 0) < this.options.turnsPerOwner;
  }

  /**
   * A search for a game's turn of `owner`: never refused for load (it waits its owner's turn in
   * the queue). Callers check hasTurnRoom first; this counts the turn whatever it says.
   */
  async move(owner: string, request: SearchRequest): Promise<SearchResult> {
    count(this.turns, owner, 1);
    try {
      return await this.run(owner, request);
    } finally {
      count(this.turns, owner, -1);
    }
  }

  /**
   * An analysis for `callers` (an account id and/or an address; the first is the owner it queues
   * as): 429 TOO_MANY_ANALYSES past any caller's cap, 503 AI_BUSY when the queue is full.
   */
  async analyze(callers: string | readonly string[], request: SearchRequest): Promise<SearchResult> {
    const keys = typeof callers === 'string' ? [callers] : callers;
    if (keys.some((key) => (this.running.get(key) ?? 0) >= this.options.perAccount)) {
      throw new GameError(
        'TOO_MANY_ANALYSES',
        `At most ${this.options.perAccount} analyses at once per caller and per address; retry when one has answered`,
        { max: this.options.perAccount, retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
    if (this.queued >= this.options.queueMax) {
      throw new GameError('AI_BUSY', 'The analysis queue is full; retry shortly', {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
    for (const key of keys) count(this.running, key, 1);
    try {
      return await this.run(keys[0] ?? '', request);
    } finally {
      for (const key of keys) count(this.running, key, -1);
    }
  }

  /** Ends the threads (a search running is abandoned, those waiting fail); later calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    const waiting = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.waitingCount = 0;
    for (const task of waiting) task.reject(shuttingDown());
    await pool?.destroy();
  }

  private run(owner: string, request: SearchRequest): Promise<SearchResult> {
    if (this.closed) return Promise.reject(shuttingDown());
    return new Promise<SearchResult>((resolve, reject) => {
      const task = { request, express: isShort(request), resolve, reject };
      const queue = this.waiting.get(owner);
      if (queue) queue.push(task);
      else this.waiting.set(owner, [task]);
      this.waitingCount++;
      this.dispatch();
    });
  }

  /** Starts waiting searches on free threads, the owner served longest ago first. */
  private dispatch(): void {
    while (!this.closed && this.waitingCount > 0) {
      const next = this.nextOwner();
      if (next === undefined) return;
      const [owner, queue] = next;
      const task = queue.shift() as Task;
      this.waitingCount--;
      if (queue.length === 0) this.waiting.delete(owner);
      this.served.set(owner, ++this.dispatches);
      const long = !task.express;
      this.active++;
      if (long) this.activeLong++;
      this.threads()
        .run(task.request, { name: 'run' })
        .then(
          (result) => task.resolve(result as SearchResult),
          (error: unknown) => {
            if (error instanceof GameError) task.reject(error);
            else if (this.closed) task.reject(shuttingDown());
            else task.reject(new GameError('INTERNAL', `The search failed: ${(error as Error).message}`));
          },
        )
        .finally(() => {
          this.active--;
          if (long) this.activeLong--;
          this.forget();
          this.dispatch();
        });
    }
  }

  /**
   * The waiting owner served longest ago whose next search may start now (a long one needs one of
   * the `workers` threads; a short one may also take the express thread); undefined: none may.
   */
  private nextOwner(): [string, Task[]] | undefined {
    const { workers } = this.options;
    if (this.active >= workers + 1) return undefined;
    let best: [string, Task[]] | undefined;
    let bestServed = Infinity;
    for (const entry of this.waiting) {
      const head = entry[1][0] as Task;
      if (!head.express && this.activeLong >= workers) continue;
      if (head.express && this.active >= workers + 1) continue;
      const at = this.served.get(entry[0]) ?? 0;
      if (at < bestServed) [best, bestServed] = [entry, at];
    }
    return best;
  }

  /** Drops what is remembered of owners with nothing waiting once it grows (bounded memory). */
  private forget(): void {
    if (this.served.size <= MAX_REMEMBERED_OWNERS) return;
    for (const owner of this.served.keys()) if (!this.waiting.has(owner)) this.served.delete(owner);
  }

  /** Threads start with the first search: a node that never thinks starts none. */
  private threads(): Piscina {
    if (!this.pool) {
      const { filename, execArgv } = workerFile(this.options.filename);
      this.pool = new Piscina({
        filename,
        execArgv,
        minThreads: 0,
        // One more than `workers`: the express thread, which only short searches take.
        maxThreads: this.options.workers + 1,
        idleTimeout: 60_000,
      });
    }
    return this.pool;
  }
}

/** Owners remembered at most before those with nothing waiting are forgotten. */
const MAX_REMEMBERED_OWNERS = 10_000;

/** Whether a search's time cap (its own, or its level's) is at most EXPRESS_MAX_MS. */
function isShort(request: SearchRequest): boolean {
  const level = request.level === undefined ? Infinity : levelBudget(request.level, request.kind).timeMs;
  return Math.min(level, request.timeMs ?? Infinity) <= EXPRESS_MAX_MS;
}

function shuttingDown(): GameError {
  return new GameError('AI_BUSY', 'The server is shutting down', { retryAfterSeconds: 2 });
}

/** Adds `delta` to a per-key count (a count back to 0 leaves the map). */
function count(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
