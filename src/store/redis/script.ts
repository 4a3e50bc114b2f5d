import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';

// One way to declare a Lua script: its command name, its KEYS and ARGV by name, and its Lua. The
// Lua reads them as KEY.<name> and ARG.<name>, and callers pass them by name: a missing or unknown
// name is a compile error in TypeScript, and a name the Lua uses but does not declare fails at
// definition (module load), where a position off by one in a 20-argument array used to be a silent
// bug. The names are resolved once, at definition: KEY.game becomes KEYS[1] in the text sent to
// Redis, so a call does no more work than before (binding them in Lua tables at every call cost
// 3-5 µs of Redis time per call, measured; the move write path is benchmarked). A generated
// comment heading the script lists the names by position. Every definition is defined
// on the data client once (defineScripts, by the storage factory): a call is an EVALSHA, sent
// again as EVAL when the server does not know the script (NOSCRIPT: after a restart or a SCRIPT
// FLUSH). Not ioredis' defineCommand: every auto-pipelined batch (one per event-loop tick) copies
// each command defined so to a new Pipeline object, and with the stores' 55 scripts that copy cost
// more CPU than the rest of a batch (about 13 µs, measured; plain EVALSHA batches copy nothing).
// On a Cluster, every key of a call must live in one slot: the declared KEYS are what ioredis
// routes the call by, so a key a script touches is declared unless it is derived inside the
// script (then from the builders generated from keys.ts: see lua-keys.ts).

export type Arg = string | number;

type Named<N extends readonly string[], V> = { readonly [P in N[number]]: V };

/** What a client knows of a script defined on it: enough to send EVALSHA, or EVAL. */
export interface DefinedScript {
  readonly sha: string;
  readonly lua: string;
  readonly numberOfKeys: number;
}

/** The scripts defined on each client (defineScripts), by name. */
const DEFINED = new WeakMap<object, Map<string, DefinedScript>>();

/** The script `name` as defined on `redis`; throws when defineScripts did not define it there. */
export function definedScript(redis: Redis | Cluster, name: string): DefinedScript {
  const defined = DEFINED.get(redis)?.get(name);
  if (!defined) throw new Error(`script ${name} is not defined on this client (defineScripts)`);
  return defined;
}

/** True for Redis' answer to an EVALSHA of a script it does not have. */
export function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/** Runs a defined script: EVALSHA, then EVAL if the server does not have it (NOSCRIPT). */
export function runScript<R>(redis: Redis | Cluster, name: string, args: readonly Arg[]): Promise<R> {
  const { sha, lua, numberOfKeys } = definedScript(redis, name);
  return (redis.evalsha(sha, numberOfKeys, ...args) as Promise<R>).catch((error: unknown) => {
    if (!isNoScript(error)) throw error;
    return redis.eval(lua, numberOfKeys, ...args) as Promise<R>;
  });
}

export interface ScriptSpec<K extends readonly string[], A extends readonly string[], Rest extends boolean> {
  /** The command name it is defined under (`boardhost…`: stable, the scripts' cache is per text). */
  readonly name: string;
  readonly keys: K;
  readonly args: A;
  /**
   * True when a variable number of arguments follows the named ones (outbox fields, seek ids to
   * avoid…): the caller passes them as an array; the Lua finds the first at ARGV[REST].
   */
  readonly rest?: Rest;
  /** The body; a leading `#!lua flags=…` line stays first. */
  readonly lua: string;
}

export interface Script<K extends readonly string[], A extends readonly string[], R, Rest extends boolean> {
  readonly name: string;
  readonly numberOfKeys: number;
  /** The Lua as defined: preamble and body. */
  readonly lua: string;
  readonly keyNames: K;
  readonly argNames: A;
  /** The command's arguments (KEYS then ARGV), in declared order. */
  argv(
    keys: Named<K, string>,
    args: Named<A, Arg>,
    ...rest: Rest extends true ? [readonly Arg[]] : []
  ): Arg[];
  /** The named arguments alone, in declared order (one script's arguments inside another's rest). */
  argsInOrder(args: Named<A, Arg>): Arg[];
  /** Runs it on a client whose scripts are defined (defineScripts). */
  run(
    redis: Redis | Cluster,
    keys: Named<K, string>,
    args: Named<A, Arg>,
    ...rest: Rest extends true ? [readonly Arg[]] : []
  ): Promise<R>;
}

/** Any definition, whatever its names and reply (for the registry). */
export interface AnyScript {
  readonly name: string;
  readonly numberOfKeys: number;
  readonly lua: string;
}

const LUA_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The comment heading a script: its names by position. */
export function scriptPreamble(keys: readonly string[], args: readonly string[], rest: boolean): string {
  for (const name of [...keys, ...args]) {
    if (!LUA_NAME.test(name)) throw new Error(`script name ${JSON.stringify(name)} is not a Lua name`);
  }
  if (new Set(keys).size !== keys.length || new Set(args).size !== args.length) {
    throw new Error(`script names repeat: ${[...keys, ...args].join(', ')}`);
  }
  const listed = (names: readonly string[]) => names.map((n, i) => `${i + 1} ${n}`).join(', ');
  const more = rest ? `, ${args.length + 1}… rest` : '';
  return `-- KEYS: ${listed(keys) || 'none'}; ARGV: ${listed(args) || 'none'}${more}`;
}

/**
 * The body with KEY.<name>, ARG.<name> and REST replaced by KEYS[i], ARGV[i] and the first rest
 * position. A name not declared throws (`script` is the name, for the message).
 */
export function resolveNames(
  script: string,
  body: string,
  keys: readonly string[],
  args: readonly string[],
  rest: boolean,
): string {
  const position = (names: readonly string[], kind: string, name: string) => {
    const i = names.indexOf(name);
    if (i < 0) throw new Error(`script ${script} uses ${kind}.${name}, which it does not declare`);
    return i + 1;
  };
  return body
    .replace(/\bKEY\.([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => `KEYS[${position(keys, 'KEY', name)}]`)
    .replace(/\bARG\.([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => `ARGV[${position(args, 'ARG', name)}]`)
    .replace(/\bREST\b/g, () => {
      if (!rest) throw new Error(`script ${script} uses REST without declaring rest`);
      return String(args.length + 1);
    });
}

/**
 * A script definition. `script<Reply>()({…})`: the reply type is given, the names are inferred
 * (write `keys` and `args` `as const`).
 */
export function script<R>() {
  return <const K extends readonly string[], const A extends readonly string[], Rest extends boolean = false>(
    spec: ScriptSpec<K, A, Rest>,
  ): Script<K, A, R, Rest> => {
    const rest = spec.rest === true;
    const preamble = scriptPreamble(spec.keys, spec.args, rest);
    const body = resolveNames(spec.name, spec.lua.replace(/^\n/, ''), spec.keys, spec.args, rest);
    const shebang = /^#![^\n]*\n/.exec(body)?.[0] ?? '';
    const lua = `${shebang}${preamble}\n${body.slice(shebang.length)}`;
    const keyNames = spec.keys;
    const argNames = spec.args;
    const nk = keyNames.length;
    const na = argNames.length;
    // On the move write path: one array of the final length, filled by index.
    const argv = (keys: Named<K, string>, args: Named<A, Arg>, rest?: readonly Arg[]): Arg[] => {
      const nr = rest ? rest.length : 0;
      const out = new Array<Arg>(nk + na + nr);
      for (let i = 0; i < nk; i++) out[i] = keys[keyNames[i] as K[number]];
      for (let i = 0; i < na; i++) out[nk + i] = args[argNames[i] as A[number]];
      for (let i = 0; i < nr; i++) out[nk + na + i] = (rest as readonly Arg[])[i] as Arg;
      return out;
    };
    const name = spec.name;
    return {
      name,
      numberOfKeys: keyNames.length,
      lua,
      keyNames,
      argNames,
      argv: argv as Script<K, A, R, Rest>['argv'],
      argsInOrder: (args) => argNames.map((a) => args[a as A[number]]),
      run: ((redis: Redis | Cluster, keys: Named<K, string>, args: Named<A, Arg>, rest?: readonly Arg[]) =>
        runScript<R>(redis, name, argv(keys, args, rest))) as Script<K, A, R, Rest>['run'],
    };
  };
}

/** Defines every script on a client (for runScript: EVALSHA, EVAL on NOSCRIPT). */
export function defineScripts(redis: Redis | Cluster, scripts: readonly AnyScript[]): void {
  let defined = DEFINED.get(redis);
  if (!defined) DEFINED.set(redis, (defined = new Map()));
  for (const { name, numberOfKeys, lua } of scripts) {
    defined.set(name, { sha: createHash('sha1').update(lua).digest('hex'), lua, numberOfKeys });
  }
}
