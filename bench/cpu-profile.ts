// What a V8 CPU profile (`node --cpu-prof`) of the built server says about where a request's CPU
// goes: each sample's time is given to a stage by the script of the function it was in (a builtin
// such as JSON.stringify, which has no script, counts for the stage of the function that called it).
// Used by `npm run bench -- api-cost` with BENCH_PROFILE=1 (the per-stage table of a REST move).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The stages, in the order of the table; the first rule whose pattern the script matches decides. */
const STAGES: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'request log (pino-http)',
    /\/node_modules\/(pino|pino-http|pino-std-serializers|sonic-boom|thread-stream)\//,
  ],
  ['security headers, CORS', /\/node_modules\/(helmet|cors|vary|object-assign)\//],
  ['edge (src/edge.ts: headers, log lines)', /\/dist\/edge\.js/],
  ['metrics (prom-client)', /\/node_modules\/(prom-client|tdigest|bintrees)\/|\/dist\/operations\.js/],
  ['rate limit', /\/dist\/transport\/rate-limit|\/dist\/store\/limiter/],
  [
    'JSON body parse (body-parser)',
    /\/node_modules\/(body-parser|raw-body|iconv-lite|content-type|type-is|media-typer|mime-types|mime-db|bytes|unpipe|http-errors|depd|destroy|on-finished|ee-first|statuses)\//,
  ],
  [
    'express, router',
    /\/node_modules\/(express|router|path-to-regexp|finalhandler|parseurl|qs|encodeurl|escape-html|utils-merge|merge-descriptors|send|serve-static|proxy-addr|forwarded|ipaddr\.js|accepts|negotiator|fresh|range-parser|etag|cookie|cookie-signature|content-disposition|methods|setprototypeof|safe-buffer|call-bound|call-bind|get-intrinsic|side-channel.*|es-.*|function-bind|has-symbols|hasown|gopd|dunder-proto|math-intrinsics|object-inspect)\//,
  ],
  ['input validation (zod)', /\/node_modules\/zod\//],
  ['REST route (transport/rest)', /\/dist\/transport\/(rest|acting)/],
  ['game engine (engines)', /\/dist\/engines\//],
  ['game service (service/game)', /\/dist\/service\/game\//],
  ['auth, other services (service)', /\/dist\/service\//],
  ['store: Redis games (args, scripts)', /\/dist\/store\/redis\/games\//],
  ['store: other (store)', /\/dist\/store\//],
  [
    'Redis client (ioredis)',
    /\/node_modules\/(ioredis|@ioredis|redis-parser|redis-errors|denque|cluster-key-slot|standard-as-callback|lodash\.[a-z]+)\//,
  ],
  ['other app code', /\/dist\//],
  ['other dependencies', /\/node_modules\//],
  ['node: HTTP, sockets, streams, timers', /^node:/],
];
const GC = 'garbage collection';
const IDLE = '(idle)';
const NATIVE = 'unattributed native (program)';

/**
 * Microseconds of CPU by stage (idle time under IDLE), from one profile of the build whose main
 * script is in `root` (its scripts are matched as if under /dist/), from the first sample in a
 * script whose URL matches `from` on.
 */
export function stagesOf(profile: CpuProfile, root: string, from: RegExp): Map<string, number> {
  const prefix = `file://${path.resolve(root)}/`;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const stageCache = new Map<number, string>();
  const stageOf = (id: number): string => {
    const known = stageCache.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const { functionName } = node.callFrame;
    const url = node.callFrame.url.startsWith(prefix)
      ? `/dist/${node.callFrame.url.slice(prefix.length)}`
      : node.callFrame.url;
    let stage: string | undefined;
    if (functionName === '(garbage collector)') stage = GC;
    else if (functionName === '(idle)') stage = IDLE;
    else if (functionName === '(program)' || functionName === '(root)') stage = NATIVE;
    else if (url) stage = STAGES.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other';
    else {
      const up = parent.get(id);
      stage = up === undefined ? NATIVE : stageOf(up);
    }
    stageCache.set(id, stage);
    return stage;
  };
  // Start-up (loading modules, building the OpenAPI document…) is left out: the samples count from
  // the first one inside a script matching `from` (the first request's handler).
  const inside = new Map<number, boolean>();
  const within = (id: number): boolean => {
    const known = inside.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const url = byId.get(id)!.callFrame.url;
    const result = (url !== '' && from.test(url)) || (up !== undefined && within(up));
    inside.set(id, result);
    return result;
  };
  const totals = new Map<string, number>();
  let started = false;
  profile.samples.forEach((id, i) => {
    started ||= within(id);
    if (!started) return;
    const stage = stageOf(id);
    totals.set(stage, (totals.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return totals;
}

/** Every stage's microseconds summed over the .cpuprofile files in `dir` (see stagesOf). */
export function stagesOfDir(dir: string, root: string, from: RegExp): Map<string, number> {
  const totals = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    for (const [stage, us] of stagesOf(profile, root, from)) totals.set(stage, (totals.get(stage) ?? 0) + us);
  }
  return totals;
}

/** Rows of the stage table: µs per request and share of the busy (non-idle) time, biggest first. */
export function stageRows(totals: Map<string, number>, requests: number): string[][] {
  const busy = [...totals].filter(([stage]) => stage !== IDLE).reduce((sum, [, us]) => sum + us, 0);
  const rows = [...totals]
    .filter(([stage]) => stage !== IDLE)
    .sort((a, b) => b[1] - a[1])
    .map(([stage, us]) => [stage, (us / requests).toFixed(1), `${((100 * us) / busy).toFixed(1)}%`]);
  rows.push(['total (busy, main thread)', (busy / requests).toFixed(1), '100%']);
  return rows;
}
