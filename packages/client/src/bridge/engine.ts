// One engine program behind the bridge's line protocol (docs/bridge.md): started with a shell
// command, greeted with `boardhost 1` until it answers `ready`, then asked one move at a time.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface MoveRequest {
  readonly kind: string;
  readonly position: string;
  readonly legal: readonly string[];
  /** Milliseconds left on the engine's clock; undefined when the game has no clock. */
  readonly timeMs?: number;
}

export type Log = (message: string) => void;

/** What the engine answered for one request, and what the bridge had to do about it. */
export interface Answer {
  readonly move: string;
  /** `engine`: its answer; `retry`: its second answer after an error; `fallback`: the first legal move. */
  readonly source: 'engine' | 'retry' | 'fallback';
}

export class Engine {
  private child: ChildProcessWithoutNullStreams | undefined;
  private waiting: ((line: string | null) => void) | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly command: string,
    private readonly log: Log,
    private readonly handshakeMs = 10_000,
  ) {}

  /** Starts the program and waits for `ready`. */
  async start(): Promise<void> {
    const child = spawn(this.command, { shell: true, stdio: 'pipe' });
    this.child = child;
    child.stdin.on('error', (error) => this.log(`engine stdin: ${error.message}`));
    child.stderr.on('data', (d: Buffer) => this.log(`engine: ${d.toString().trimEnd()}`));
    child.on('error', (error) => this.log(`engine: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (this.child === child) {
        this.child = undefined;
        this.log(`engine exited (${signal ?? code})`);
        this.waiting?.(null);
      }
    });
    createInterface({ input: child.stdout }).on('line', (raw) => {
      const line = raw.trim();
      if (line.startsWith('info ') || line.startsWith('name ')) this.log(`engine ${line}`);
      else if (line !== '') this.waiting?.(line);
    });
    this.send('boardhost 1');
    if ((await this.expect('ready', this.handshakeMs)) === null) {
      this.stop();
      throw new Error(`the engine did not answer "ready" to "boardhost 1" within ${this.handshakeMs} ms`);
    }
  }

  /**
   * The engine's move for a position. An answer that is not one of the legal moves is sent back as
   * `error illegal <move>` and the engine is asked once more; an engine that answers illegally
   * again, late (after `timeoutMs`) or not at all is replaced by the first legal move (a late or
   * dead engine is restarted).
   */
  bestMove(request: MoveRequest, timeoutMs: number): Promise<Answer> {
    const next = this.queue.then(() => this.ask(request, timeoutMs));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async ask(request: MoveRequest, timeoutMs: number): Promise<Answer> {
    const fallback = (why: string): Answer => {
      this.log(`engine: ${why}; playing the first legal move ${request.legal[0]}`);
      return { move: request.legal[0] as string, source: 'fallback' };
    };
    if (!this.child) await this.start();
    const deadline = Date.now() + timeoutMs;
    this.send(`position ${request.kind} ${request.position}`);
    this.send(`legal ${request.legal.join(' ')}`);
    if (request.timeMs !== undefined) this.send(`time ${Math.max(0, Math.floor(request.timeMs))}`);
    for (const source of ['engine', 'retry'] as const) {
      this.send('go');
      const line = await this.expect('bestmove', deadline - Date.now());
      if (line === null) {
        this.restart();
        return fallback(`no bestmove within ${timeoutMs} ms`);
      }
      const move = line.slice('bestmove'.length).trim();
      if (request.legal.includes(move)) return { move, source };
      this.log(`engine: illegal answer "${line}"`);
      this.send(`error illegal ${move || '(none)'}`);
    }
    return fallback('illegal answer twice');
  }

  /** The next line that starts with `word` (others are logged and skipped), or null on timeout or exit. */
  private expect(word: string, timeoutMs: number): Promise<string | null> {
    return new Promise((resolve) => {
      if (!this.child) return resolve(null);
      const timer = setTimeout(() => done(null), Math.max(0, timeoutMs));
      const done = (line: string | null) => {
        if (line !== null && line !== word && !line.startsWith(`${word} `)) {
          this.log(`engine: ignored "${line}" (waiting for ${word})`);
          return;
        }
        clearTimeout(timer);
        this.waiting = undefined;
        resolve(line);
      };
      this.waiting = done;
    });
  }

  private send(line: string): void {
    this.child?.stdin.write(`${line}\n`);
  }

  private restart(): void {
    this.stop();
  }

  /** Asks the engine to quit, and ends it if it does not within a second. */
  stop(): void {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    child.stdin.end('quit\n');
    const kill = setTimeout(() => child.kill('SIGKILL'), 1000).unref();
    child.on('exit', () => clearTimeout(kill));
  }
}
