// The script definition helper (src/store/redis/script.ts): the names resolved in the Lua, the
// comment it generates, the order of a call's arguments, and a run on a real Redis. The type
// checks (a missing or unknown name is a compile error) are the @ts-expect-error lines, which
// `tsc --noEmit` checks.
import { connectRedis } from '../../src/store/redis';
import { randomBytes } from 'node:crypto';
import { defineScripts, resolveNames, script, scriptPreamble } from '../../src/store/redis/script';
import { runReplicated } from '../../src/store/redis/relay/relay';
import { SCRIPTS } from '../../src/store/redis/scripts';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';

const echo = script<[string, string, string, string]>()({
  name: 'boardhostTestEcho',
  keys: ['first', 'second'],
  args: ['one', 'two'],
  rest: true,
  lua: `
return {KEY.second, ARG.two, ARGV[REST], tostring(#ARGV - REST + 1)}
`,
});

const readOnly = script<string>()({
  name: 'boardhostTestReadOnly',
  keys: ['key'],
  args: [],
  lua: `#!lua flags=no-writes
return redis.call('GET', KEY.key) or ''
`,
});

describe('script()', () => {
  it('resolves the declared names to KEYS and ARGV positions once, and REST after the named arguments', () => {
    const body = 'redis.call(KEY.moves, ARG.head, ARG.id, ARGV[REST], KEYS[1])';
    expect(resolveNames('t', body, ['game', 'moves'], ['id', 'head'], true)).toBe(
      'redis.call(KEYS[2], ARGV[2], ARGV[1], ARGV[3], KEYS[1])',
    );
    expect(echo.numberOfKeys).toBe(2);
    expect(echo.lua).toBe(
      '-- KEYS: 1 first, 2 second; ARGV: 1 one, 2 two, 3… rest\nreturn {KEYS[2], ARGV[2], ARGV[3], tostring(#ARGV - 3 + 1)}\n',
    );
    expect(scriptPreamble(['set'], [], false)).toBe('-- KEYS: 1 set; ARGV: none');
  });

  it('keeps a #!lua flags line first', () => {
    expect(readOnly.lua.split('\n').slice(0, 3)).toEqual([
      '#!lua flags=no-writes',
      '-- KEYS: 1 key; ARGV: none',
      "return redis.call('GET', KEYS[1]) or ''",
    ]);
  });

  it('refuses names Lua cannot hold, repeated names, and names the Lua uses but does not declare', () => {
    expect(() => scriptPreamble(['a-b'], [], false)).toThrow(/not a Lua name/);
    expect(() => scriptPreamble(['a', 'a'], [], false)).toThrow(/repeat/);
    expect(() => resolveNames('t', 'return KEY.missing', ['game'], [], false)).toThrow(/KEY\.missing/);
    expect(() => resolveNames('t', 'return ARG.missing', [], ['id'], false)).toThrow(/ARG\.missing/);
    expect(() => resolveNames('t', 'return ARGV[REST]', [], ['id'], false)).toThrow(/REST/);
  });

  it('orders a call by the declaration, whatever the order of the object', () => {
    expect(echo.argv({ second: 'k2', first: 'k1' }, { two: 2, one: 'x' }, ['r1', 'r2'])).toEqual([
      'k1',
      'k2',
      'x',
      2,
      'r1',
      'r2',
    ]);
  });

  it('every script of the stores has a unique name and its names resolved', () => {
    const names = SCRIPTS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(30);
    for (const s of SCRIPTS) {
      expect(s.lua).toMatch(/^(#![^\n]*\n)?-- KEYS: /);
      // A name left over would be nil in Lua.
      expect(s.lua).not.toMatch(/\b(KEY|ARG)\.[A-Za-z_]|\bREST\b/);
    }
  });

  it('runs on Redis with EVALSHA (EVAL when Redis does not have the script)', async () => {
    const redis = await connectRedis(REDIS_URL);
    const prefix = uniquePrefix('script');
    try {
      defineScripts(redis, [echo, readOnly]);
      const keys = { first: `${prefix}a`, second: `${prefix}b` };
      expect(await echo.run(redis, keys, { one: '1', two: 'two' }, ['r', 's', 't'])).toEqual([
        `${prefix}b`,
        'two',
        'r',
        '3',
      ]);
      await redis.set(`${prefix}c`, 'value');
      expect(await readOnly.run(redis, { key: `${prefix}c` }, {})).toBe('value');
    } finally {
      await deletePrefix(prefix);
      redis.disconnect();
    }
  });

  it('sends the whole script once when Redis answers NOSCRIPT, then EVALSHA again', async () => {
    // A script no Redis has seen (its text is new), so that its first EVALSHA is refused.
    const fresh = script<string>()({
      name: 'boardhostTestFresh',
      keys: [],
      args: ['value'],
      lua: `-- ${randomBytes(8).toString('hex')}\nreturn ARG.value`,
    });
    const redis = await connectRedis(REDIS_URL);
    const sent: string[] = [];
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command: Parameters<typeof redis.sendCommand>[0], stream) => {
      sent.push(command.name);
      return send(command, stream);
    }) as typeof redis.sendCommand;
    try {
      defineScripts(redis, [fresh]);
      expect(await fresh.run(redis, {}, { value: 'a' })).toBe('a');
      expect(await fresh.run(redis, {}, { value: 'b' })).toBe('b');
      expect(sent.filter((name) => name === 'evalsha' || name === 'eval')).toEqual([
        'evalsha',
        'eval',
        'evalsha',
      ]);
    } finally {
      redis.disconnect();
    }
  });

  it('runs a script with WAIT behind it (runReplicated), sending it whole after NOSCRIPT', async () => {
    const key = script<number>()({
      name: 'boardhostTestReplicated',
      keys: ['key'],
      args: [],
      lua: `-- ${randomBytes(8).toString('hex')}\nreturn redis.call('INCR', KEY.key)`,
    });
    const redis = await connectRedis(REDIS_URL);
    const prefix = uniquePrefix('script');
    try {
      defineScripts(redis, [key]);
      const argv = key.argv({ key: `${prefix}n` }, {});
      // The test Redis has no replica: the write stands, unacknowledged (its first EVALSHA was
      // refused with NOSCRIPT, so the pipeline was sent again with EVAL).
      await expect(runReplicated(redis, { replicas: 1, timeoutMs: 10 }, key.name, argv)).rejects.toThrow(
        /^NOREPLICAS the write was acknowledged by 0 of 1/,
      );
      expect(await runReplicated(redis, { replicas: 0, timeoutMs: 10 }, key.name, argv)).toBe(2);
      expect(await redis.get(`${prefix}n`)).toBe('2');
    } finally {
      await deletePrefix(prefix);
      redis.disconnect();
    }
  });

  it('says so when a client lacks the definitions', async () => {
    const redis = await connectRedis(REDIS_URL);
    try {
      expect(() => readOnly.run(redis, { key: 'x' }, {})).toThrow(/not defined on this client/);
    } finally {
      redis.disconnect();
    }
  });
});

// Compile-time checks (never run): names are checked against the declaration.
export function typeChecks(redis: Parameters<typeof echo.run>[0]): void {
  // @ts-expect-error a key is missing
  void echo.run(redis, { first: 'a' }, { one: 1, two: 2 }, []);
  // @ts-expect-error an unknown argument
  void echo.run(redis, { first: 'a', second: 'b' }, { one: 1, two: 2, three: 3 }, []);
  // @ts-expect-error the rest is declared, so it is required
  void echo.run(redis, { first: 'a', second: 'b' }, { one: 1, two: 2 });
  // @ts-expect-error no rest declared
  void readOnly.run(redis, { key: 'a' }, {}, ['extra']);
}
