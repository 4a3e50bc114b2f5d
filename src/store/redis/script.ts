import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';

// One way to declare a Lua script: its command name, its KEYS and ARGV by name, and its Lua. The
// Lua reads them as KEY.<name> and ARG.<name> (a preamble generated once, at definition, binds
// them), and callers pass them by name: a missing or unknown name is a compile error, where a
// position off by one in a 20-argument array used to be a silent bug. Every definition is defined
// on the data client once (defineScripts, by the storage factory) with ioredis' defineCommand:
// EVALSHA, falling back to EVAL when the server does not know the script (ioredis' semantics).
// On a Cluster, every key of a call must live in one slot: the declared KEYS are what ioredis
// routes the call by, so a key a script touches is declared unless it is derived inside the
// script (then from the builders generated from keys.ts: see lua-keys.ts).

export type Arg = string | number;

type Named<N extends readonly string[], V> = { readonly [P in N[number]]: V };

/** What a definition is run on: a client, or a pipeline of one (runReplicated). */
export interface ScriptTarget {
  [command: string]: unknown;
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

/** The Lua binding the declared names: `local KEY = {a = KEYS[1], …}` and `local ARG = {…}`. */
export function scriptPreamble(keys: readonly string[], args: readonly string[], rest: boolean): string {
  for (const name of [...keys, ...args]) {
    if (!LUA_NAME.test(name)) throw new Error(`script name ${JSON.stringify(name)} is not a Lua name`);
  }
  if (new Set(keys).size !== keys.length || new Set(args).size !== args.length) {
    throw new Error(`script names repeat: ${[...keys, ...args].join(', ')}`);
  }
  const lines: string[] = [];
  if (keys.length > 0) lines.push(`local KEY = {${keys.map((k, i) => `${k} = KEYS[${i + 1}]`).join(', ')}}`);
  if (args.length > 0) lines.push(`local ARG = {${args.map((a, i) => `${a} = ARGV[${i + 1}]`).join(', ')}}`);
  if (rest) lines.push(`local REST = ${args.length + 1}`);
  return lines.join('\n');
}

/**
 * A script definition. `script<Reply>()({…})`: the reply type is given, the names are inferred
 * (write `keys` and `args` `as const`).
 */
export function script<R>() {
  return <const K extends readonly string[], const A extends readonly string[], Rest extends boolean = false>(
    spec: ScriptSpec<K, A, Rest>,
  ): Script<K, A, R, Rest> => {
    const preamble = scriptPreamble(spec.keys, spec.args, spec.rest === true);
    const body = spec.lua.replace(/^\n/, '');
    const shebang = /^#![^\n]*\n/.exec(body)?.[0] ?? '';
    const lua = `${shebang}${preamble}\n${body.slice(shebang.length)}`;
    const keyNames = spec.keys;
    const argNames = spec.args;
    const argv = (keys: Named<K, string>, args: Named<A, Arg>, rest?: readonly Arg[]): Arg[] => {
      const out: Arg[] = [];
      for (const k of keyNames) out.push(keys[k as K[number]]);
      for (const a of argNames) out.push(args[a as A[number]]);
      if (rest) for (const r of rest) out.push(r);
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
      run: ((redis: Redis | Cluster, keys: Named<K, string>, args: Named<A, Arg>, rest?: readonly Arg[]) => {
        const command = (redis as unknown as ScriptTarget)[name] as ((...a: Arg[]) => Promise<R>) | undefined;
        if (!command) throw new Error(`script ${name} is not defined on this client (defineScripts)`);
        return command.apply(redis, argv(keys, args, rest));
      }) as Script<K, A, R, Rest>['run'],
    };
  };
}

/** Defines every script on a client (ioredis defineCommand: EVALSHA, EVAL on NOSCRIPT). */
export function defineScripts(redis: Redis | Cluster, scripts: readonly AnyScript[]): void {
  for (const { name, numberOfKeys, lua } of scripts) redis.defineCommand(name, { numberOfKeys, lua });
}
