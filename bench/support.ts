// What the benches that run the built server share: child processes (the server, the ceilings) on
// free ports, the server's environment, REST calls, games and accounts made over HTTP, streams read
// frame by frame with their exact bytes, and the arithmetic of the reports.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { openStream, type ItemStream } from '../test/support/stream-reader';

export const ROOT = path.resolve(__dirname, '..');
export const HOST = '127.0.0.1';

// ---------------------------------------------------------------------------------------------------
// Processes

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly base: string;
  /** Last lines of stderr/stdout, for error messages. */
  readonly output: () => string;
}

/** Starts `node <args>` on a free port (PORT, HOST) and waits until GET /readyz answers 200. */
export async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<Child> {
  const port = await freePort();
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const child: Child = { name, proc, base: `http://${HOST}:${port}`, output: () => tail };
  try {
    await waitReady(child);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return child;
}

async function waitReady(child: Child, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
      throw new Error(`${child.name} exited before it was ready:\n${child.output()}`);
    }
    try {
      const res = await fetch(`${child.base}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${child.name} not ready after ${timeoutMs} ms:\n${child.output()}`);
}

export async function stopChild(child: Child | undefined): Promise<void> {
  if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.proc.once('exit', () => resolve()));
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** `npm run build` (dist/main.js is what runs), unless BENCH_SKIP_BUILD=1. */
export function buildServer(): void {
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  console.log('building (npm run build)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

/** A key prefix of its own for one bench run (`bench:<label>:<random>:`). */
export function benchPrefix(label: string): string {
  return `bench:${label}:${randomBytes(6).toString('hex')}:`;
}

/**
 * The server's environment: Redis under `prefix`, quiet logs, and rate limits and quotas out of
 * reach but still counted (the benches measure their real cost, and create many games and accounts
 * from one address).
 */
export function serverEnv(redisUrl: string, prefix: string): NodeJS.ProcessEnv {
  return {
    REDIS_URL: redisUrl,
    // Never inherited from the bench's own environment (the server refuses both; api-cluster.ts sets it).
    REDIS_CLUSTER_NODES: '',
    REDIS_KEY_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_TOKEN: '1000000000',
    RATE_LIMIT_PER_IP: '1000000000',
    MAX_GAMES_PER_IP_PER_DAY: '1000000000',
    MAX_ACCOUNTS_PER_IP_PER_DAY: '1000000000',
  };
}

/** The built server (dist/main.js) as a child; `nodeArgs` go before the script (e.g. --cpu-prof). */
export function startServer(name: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<Child> {
  return startChild(name, [...nodeArgs, 'dist/main.js'], env);
}

// ---------------------------------------------------------------------------------------------------
// REST

/** One JSON call to `/api/v1<path>`; fails unless the status is `expect`. */
export async function call<T>(
  base: string,
  method: string,
  apiPath: string,
  options: { token?: string; body?: unknown; expect?: number } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(`${base}/api/v1${apiPath}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  if (res.status !== (options.expect ?? 200)) throw new Error(`${method} ${apiPath}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The parts of a game's JSON the benches read. */
export interface GameJson {
  readonly id: string;
  readonly version: number;
  readonly ply: number;
  readonly status: string;
  readonly toMove: number | null;
  readonly legalMoves: string[];
  readonly seats: ReadonlyArray<{ seat: number; account: string | null }>;
}

export interface CreatedGameJson {
  game: GameJson;
  seatTokens: Array<{ seat: number; token: string }>;
}

export interface BenchAccount {
  readonly id: string;
  readonly username: string;
  readonly token: string;
}

/** A new human account (its first token has game:read, game:play and challenge:write). */
export async function signUp(base: string, label: string): Promise<BenchAccount> {
  const username = `${label}-${randomBytes(4).toString('hex')}`;
  const json = await call<{ account: { id: string }; token: { token: string } }>(base, 'POST', '/accounts', {
    body: { username, kind: 'human' },
    expect: 201,
  });
  return { id: json.account.id, username, token: json.token.token };
}

/** A game between two accounts: `from` challenges `to` (who starts: `from`), `to` accepts. */
export async function accountGame(
  base: string,
  from: BenchAccount,
  to: BenchAccount,
  kind: string,
  options: Record<string, unknown> = {},
): Promise<GameJson> {
  const challenge = await call<{ id: string }>(base, 'POST', '/challenges', {
    token: from.token,
    body: { to: to.username, kind, options, starts: 'challenger' },
    expect: 201,
  });
  const accepted = await call<{ gameId: string | null }>(base, 'POST', `/challenges/${challenge.id}/accept`, {
    token: to.token,
  });
  if (!accepted.gameId) throw new Error('the accepted challenge made no game');
  return call<GameJson>(base, 'GET', `/games/${accepted.gameId}`);
}

/** Plays `move` with `token` (a seat token or the API token of the seat's account). */
export function playMove(base: string, id: string, move: string, token: string): Promise<GameJson> {
  return call<GameJson>(base, 'POST', `/games/${id}/moves`, { token, body: { move } });
}

// ---------------------------------------------------------------------------------------------------
// Streams, frame by frame

/** One SSE event or NDJSON line as it came: its bytes on the wire (UTF-8) and its parsed JSON. */
export interface Frame {
  /** The SSE event name; for NDJSON the line's `type`, if any. */
  readonly event: string;
  readonly bytes: number;
  readonly data: Record<string, unknown>;
  /** performance.now() when the chunk that completed the frame was read. */
  readonly at: number;
}

/**
 * Reads `url` (Accept: `sse` → text/event-stream, `ndjson` → application/x-ndjson) frame by frame:
 * SSE events (comments and the `retry:` preamble are not frames) or non-empty NDJSON lines. The
 * server ends every SSE event with a blank line and every NDJSON line with `\n`; both are counted.
 */
export function openFrames(
  url: string,
  format: 'sse' | 'ndjson',
  headers: Record<string, string> = {},
): Promise<ItemStream<Frame>> {
  const accept = format === 'sse' ? 'text/event-stream' : 'application/x-ndjson';
  const separator = format === 'sse' ? '\n\n' : '\n';
  return openStream<Frame>(
    url,
    { ...headers, accept },
    (push) => {
      let buffer = '';
      return (text) => {
        buffer += text;
        const at = performance.now();
        let cut;
        while ((cut = buffer.indexOf(separator)) >= 0) {
          const raw = buffer.slice(0, cut + separator.length);
          buffer = buffer.slice(cut + separator.length);
          const frame = format === 'sse' ? sseFrame(raw, at) : ndjsonFrame(raw, at);
          if (frame) push(frame);
        }
      };
    },
    { source: url, ended: `${url}: the stream ended`, item: `frame of ${url}` },
  );
}

function sseFrame(raw: string, at: number): Frame | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of raw.split('\n')) {
    if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length === 0) return undefined;
  return { event, bytes: Buffer.byteLength(raw), data: JSON.parse(data.join('\n')), at };
}

function ndjsonFrame(raw: string, at: number): Frame | undefined {
  if (raw.trim() === '') return undefined;
  const data = JSON.parse(raw) as Record<string, unknown>;
  const event = typeof data.type === 'string' ? data.type : 'message';
  return { event, bytes: Buffer.byteLength(raw), data, at };
}

// ---------------------------------------------------------------------------------------------------
// Reports

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The nearest-rank percentile `p` (0…1) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] as number;
}

/** Rows as aligned columns: the first left-aligned, the others right-aligned. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

/** A comma-separated env list, checked against `allowed` when given. */
export function envList<T extends string>(name: string, fallback: T[], allowed?: readonly T[]): T[] {
  const raw = process.env[name];
  if (!raw) return fallback;
  const items = raw.split(',').map((s) => s.trim()) as T[];
  if (allowed) {
    for (const item of items) {
      if (!allowed.includes(item)) throw new Error(`${name}: unknown ${item} (one of ${allowed.join(', ')})`);
    }
  }
  return items;
}

/** A small deterministic PRNG (mulberry32, the AI's): the same seed plays the same games. */
export { prng } from '../src/ai/rng';
