// A Redis server of the test's own, on a free loopback port, for tests that must kill, pause, restart
// or age one. Real `redis-server` processes (never mocks); each has its own data directory.
import Redis from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A loopback port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** The data directory (dump.rdb / appendonly files live here). */
  readonly dir: string;
  /** SIGKILL: no save, no goodbye. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (after kill), with the same arguments. */
  restart(extraArgs?: readonly string[]): Promise<void>;
  /**
   * `CLIENT PAUSE ms ALL`: the server holds every client's commands for `ms` (`WRITE`: only
   * commands that may write, scripts included; reads go on).
   */
  pause(ms: number, mode?: 'ALL' | 'WRITE'): Promise<void>;
  /** SIGSTOP (true) or SIGCONT (false): a stalled process, its connections open and silent. */
  freeze(frozen: boolean): void;
  /** Kills it and removes its directory. */
  stop(): Promise<void>;
}

/** Starts `redis-server` on a free port; `args` are extra command-line options (`--appendonly yes`). */
export async function startRedisServer(args: readonly string[] = []): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bh-redis-'));
  let child: ChildProcess | undefined;
  let current = args;

  const launch = async (extra: readonly string[]) => {
    current = [...args, ...extra];
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        ...current,
      ],
      { stdio: 'ignore' },
    );
    await waitUntilUp(port);
  };

  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  };

  await launch([]);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    kill,
    restart: async (extraArgs = []) => {
      await kill();
      await launch(extraArgs.length ? extraArgs : current.slice(args.length));
    },
    pause: async (ms, mode = 'ALL') => {
      const admin = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
      await admin.connect();
      await admin.call('CLIENT', 'PAUSE', String(ms), mode);
      admin.disconnect();
    },
    freeze: (frozen) => {
      child?.kill(frozen ? 'SIGSTOP' : 'SIGCONT');
    },
    stop: async () => {
      child?.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once a Redis answers PING on the loopback `port` (10 s at most). */
export async function waitUntilUp(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis(port, '127.0.0.1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') {
        probe.disconnect();
        return;
      }
    } catch {
      // not up yet
    }
    probe.disconnect();
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
