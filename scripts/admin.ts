// npm run admin -- <command>: the operator's apps and keys from a shell, over the same AppService as
// the operator API (/api/v1/admin) and the store the server is configured with (REDIS_URL or
// REDIS_CLUSTER_NODES, REDIS_KEY_PREFIX). Prints JSON on stdout; errors on stderr, exit code 1.
//
//   app create <name>                  an app and its first key (every scope; the secret only here)
//   app list | app show <appId>
//   key create <appId> [--label x] [--scopes a,b]
//   key list <appId> | key revoke <appId> <keyId>
import 'reflect-metadata';
import { loadConfig } from '../src/config';
import { createServices, type Services } from '../src/service';
import { toGameError } from '../src/service/errors';
import { createMemoryStorage } from '../src/store/memory';
import { createRedisStorage } from '../src/store/redis';
import type { Storage } from '../src/store/store';

const USAGE = `usage: npm run admin -- <command>
  app create <name>
  app list
  app show <appId>
  key create <appId> [--label <label>] [--scopes <scope,scope>]
  key list <appId>
  key revoke <appId> <keyId>`;

class UsageError extends Error {}

/** `--name value` options and the other words, in order. */
function parseArgs(argv: readonly string[]): { words: string[]; flags: Map<string, string> } {
  const words: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith('--')) {
      const value = argv[i + 1];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      flags.set(arg.slice(2), value);
      i++;
    } else words.push(arg);
  }
  return { words, flags };
}

async function run(services: Services, argv: readonly string[]): Promise<unknown> {
  const { words, flags } = parseArgs(argv);
  const [noun, verb, ...rest] = words;
  const arg = (n: number, name: string): string => {
    const value = rest[n];
    if (value === undefined) throw new UsageError(`missing <${name}>`);
    return value;
  };
  const apps = services.apps;
  switch (`${noun} ${verb}`) {
    case 'app create': {
      const app = await apps.createApp({ name: rest.join(' ') || arg(0, 'name') });
      return { app, key: await apps.createKey(app.id, { label: 'first key' }) };
    }
    case 'app list':
      return { items: await apps.listApps() };
    case 'app show':
      return apps.getApp(arg(0, 'appId'));
    case 'key create': {
      const label = flags.get('label');
      const scopes = flags
        .get('scopes')
        ?.split(',')
        .map((s) => s.trim());
      return apps.createKey(arg(0, 'appId'), {
        ...(label === undefined ? {} : { label }),
        ...(scopes === undefined ? {} : { scopes }),
      });
    }
    case 'key list':
      return { items: await apps.listKeys(arg(0, 'appId')) };
    case 'key revoke':
      return apps.revokeKey(arg(0, 'appId'), arg(1, 'keyId'));
    default:
      throw new UsageError(`unknown command "${words.join(' ')}"`);
  }
}

async function openStorage(): Promise<Storage> {
  const config = loadConfig();
  const redis = config.REDIS_CLUSTER_NODES ? { clusterNodes: config.REDIS_CLUSTER_NODES } : config.REDIS_URL;
  if (!redis) {
    process.stderr.write(
      'warning: no REDIS_URL or REDIS_CLUSTER_NODES: the embedded store is this process’s own, and what this ' +
        'command makes vanishes when it exits (use the operator API of the running server instead)\n',
    );
    return createMemoryStorage();
  }
  return createRedisStorage(redis, config.REDIS_KEY_PREFIX, {
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    waitReplicas: config.REDIS_WAIT_REPLICAS,
  });
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 1 : 0;
  }
  const storage = await openStorage();
  const services = createServices(storage);
  try {
    const answer = await run(services, argv);
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    const problem = toGameError(error);
    process.stderr.write(`${JSON.stringify({ code: problem.code, message: problem.message })}\n`);
    return 1;
  } finally {
    await services.aiPool.close();
    await storage.events.close();
    await storage.games.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  },
);
