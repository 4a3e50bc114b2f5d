// The autocannon workloads of `npm run bench -- api` (see api.ts): real moves against the built
// server over REST and GraphQL, and the two ceilings' single EVALSHA requests.
import autocannon from 'autocannon';
import type { CreatedGameJson } from './support';

/** `rest`: submitMove with Prefer: return=minimal (head + move); `rest-full`: the whole game. */
export type Workload = 'rest' | 'rest-full' | 'graphql' | 'ceiling' | 'ceiling-app' | 'apollo';
export const WORKLOADS: readonly Workload[] = [
  'rest',
  'rest-full',
  'graphql',
  'ceiling',
  'ceiling-app',
  'apollo',
];
/** What runs unless BENCH_WORKLOADS says otherwise. */
export const DEFAULT_WORKLOADS: readonly Workload[] = ['rest', 'graphql', 'ceiling', 'ceiling-app', 'apollo'];
/** The workloads served by bench/ceiling-server.ts (one EVALSHA a request, no game pool). */
export const isCeiling = (workload: Workload): boolean =>
  workload === 'ceiling' || workload === 'ceiling-app' || workload === 'apollo';

export const GQL_SUBMIT =
  'mutation($id:ID!,$move:String!,$t:String){submitMove(id:$id,move:$move,seatToken:$t){status toMove legalMoves}}';

/** The Apollo ceiling's request: the real mutation's text and variables, answered by one EVALSHA. */
const APOLLO_CEILING_BODY = JSON.stringify({
  query: GQL_SUBMIT,
  variables: { id: 'AAAAAAAAAAAA', move: '3', t: 'bhs_benchbenchbenchbench' },
});

// ---------------------------------------------------------------------------------------------------
// Games

interface LiveGame {
  readonly id: string;
  /** Seat token by seat number. */
  readonly tokens: readonly string[];
  toMove: number;
  legalMoves: readonly string[];
  plies: number;
}

function fromCreated(json: CreatedGameJson): LiveGame {
  const tokens: string[] = [];
  for (const s of json.seatTokens) tokens[s.seat] = s.token;
  if (json.game.toMove === null || json.game.legalMoves.length === 0)
    throw new Error('new game not playable');
  return { id: json.game.id, tokens, toMove: json.game.toMove, legalMoves: json.game.legalMoves, plies: 0 };
}

const CREATE_BODY = JSON.stringify({ kind: 'kalah' });

/** Fresh (or part-played, never finished) games shared by the connections of all runs. */
export class GamePool {
  private readonly games: LiveGame[] = [];
  private refilling: Promise<void> | undefined;
  finishedGames = 0;
  finishedPlies = 0;

  constructor(private readonly base: string) {}

  get size(): number {
    return this.games.length;
  }

  /** Average plies of the games played to the end so far (40 until one has). */
  get averagePlies(): number {
    return this.finishedGames > 0 ? this.finishedPlies / this.finishedGames : 40;
  }

  take(): LiveGame | undefined {
    return this.games.pop();
  }

  give(game: LiveGame): void {
    this.games.push(game);
  }

  finished(game: LiveGame): void {
    this.finishedGames++;
    this.finishedPlies += game.plies;
  }

  /**
   * Creates games (16 at a time) until the pool holds `target`. A 503 (a store that is busy, e.g. a
   * cluster that has just formed, on a loaded machine) is retried for up to about ten seconds.
   */
  async fill(target: number): Promise<void> {
    const worker = async () => {
      let unavailable = 0;
      while (this.games.length < target) {
        const res = await fetch(`${this.base}/api/v1/games`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: CREATE_BODY,
        });
        if (res.status === 503 && unavailable++ < 20) {
          await res.text();
          await new Promise((resolve) => setTimeout(resolve, 500));
          continue;
        }
        if (res.status !== 201) throw new Error(`create game: ${res.status} ${await res.text()}`);
        this.games.push(fromCreated((await res.json()) as CreatedGameJson));
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  }

  /** Tops up in the background while a run is going, if the pool runs low. */
  refillSoon(target: number): void {
    if (this.refilling) return;
    this.refilling = this.fill(target)
      .catch((error: unknown) => console.error(`background refill failed: ${(error as Error).message}`))
      .finally(() => {
        this.refilling = undefined;
      });
  }

  async settle(): Promise<void> {
    await this.refilling;
  }
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

// ---------------------------------------------------------------------------------------------------
// One autocannon run

export interface RunResult {
  /** 1, 2, …; 0 for a warm-up. */
  readonly run: number;
  readonly workload: Workload;
  readonly connections: number;
  /** Successful (accepted-move / 2xx) responses per second. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Non-2xx responses, GraphQL answers with `errors`, connection errors and timeouts. */
  readonly failures: number;
  /** Requests spent creating a game in-band because the pool was empty (not counted as successes). */
  readonly inbandCreates: number;
  /** Every answer the server sent in the run (successes, failures, in-band creates). */
  readonly served: number;
}

interface Counters {
  ok: number;
  failed: number;
  creates: number;
  sample: string;
}

/** Per-connection state for the move workloads; wired in through autocannon's setupClient. */
function moveClientSetup(
  workload: 'rest' | 'rest-full' | 'graphql',
  pool: GamePool,
  lowWater: number,
  counters: Counters,
  live: Set<{ game: LiveGame | undefined; awaiting: boolean }>,
): (client: autocannon.Client) => void {
  return (client) => {
    const conn: { game: LiveGame | undefined; awaiting: boolean; creating: boolean } = {
      game: undefined,
      awaiting: false,
      creating: false,
    };
    live.add(conn);
    const fail = (status: number, body: string) => {
      counters.failed++;
      if (!counters.sample) counters.sample = `${status} ${body.slice(0, 300)}`;
      conn.game = undefined; // its state is unknown now: take another
    };
    client.setRequests([
      {
        method: 'POST',
        setupRequest: (req) => {
          // A request that never got its answer (timeout, reconnect) leaves the game's state unknown.
          if (conn.awaiting) conn.game = undefined;
          conn.awaiting = true;
          if (!conn.game) conn.game = pool.take();
          if (pool.size < lowWater) pool.refillSoon(lowWater * 4);
          const game = conn.game;
          if (!game) {
            conn.creating = true;
            return {
              ...req,
              path: '/api/v1/games',
              headers: { 'content-type': 'application/json' },
              body: CREATE_BODY,
            };
          }
          conn.creating = false;
          const move = pick(game.legalMoves);
          const token = game.tokens[game.toMove] as string;
          if (workload !== 'graphql') {
            return {
              ...req,
              path: `/api/v1/games/${game.id}/moves`,
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${token}`,
                ...(workload === 'rest' ? { prefer: 'return=minimal' } : {}),
              },
              body: JSON.stringify({ move }),
            };
          }
          return {
            ...req,
            path: '/graphql',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: GQL_SUBMIT, variables: { id: game.id, move, t: token } }),
          };
        },
        onResponse: (status, body) => {
          conn.awaiting = false;
          if (conn.creating) {
            counters.creates++;
            if (status === 201) conn.game = fromCreated(JSON.parse(body) as CreatedGameJson);
            else fail(status, body);
            return;
          }
          const game = conn.game;
          if (!game) return;
          if (status < 200 || status >= 300) return fail(status, body);
          let view: { status: string; toMove: number | null; legalMoves: string[] };
          if (workload === 'rest') {
            view = (JSON.parse(body) as { game: typeof view }).game;
          } else if (workload === 'rest-full') {
            view = JSON.parse(body) as typeof view;
          } else {
            const json = JSON.parse(body) as { data?: { submitMove?: typeof view } | null; errors?: unknown };
            if (json.errors || !json.data?.submitMove) return fail(status, body);
            view = json.data.submitMove;
          }
          counters.ok++;
          game.plies++;
          if (view.status !== 'ongoing' || view.toMove === null || view.legalMoves.length === 0) {
            pool.finished(game);
            conn.game = undefined;
          } else {
            game.toMove = view.toMove;
            game.legalMoves = view.legalMoves;
          }
        },
      },
    ]);
  };
}

export async function runOnce(
  workload: Workload,
  connections: number,
  seconds: number,
  base: string,
  pool: GamePool | undefined,
  run: number,
  /** An express ceiling's path (default /<workload>; api-cost.ts sends its layers' paths). */
  ceilingPath = `/${workload}`,
  /** Requests per second of all connections together (autocannon's overallRate); none: as fast as answered. */
  overallRate?: number,
): Promise<RunResult> {
  const counters: Counters = { ok: 0, failed: 0, creates: 0, sample: '' };
  const live = new Set<{ game: LiveGame | undefined; awaiting: boolean }>();
  const options: autocannon.Options = {
    url: base,
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 10,
    ...(overallRate ? { overallRate } : {}),
  };
  const express = workload === 'ceiling' || workload === 'ceiling-app';
  if (express) {
    options.url = `${base}${ceilingPath}`;
    options.method = 'POST';
    // A seat token's form, as a move carries: the rate limit layer counts it (api-cost.ts).
    options.headers = {
      'content-type': 'application/json',
      authorization: 'Bearer bhs_benchbenchbenchbench',
    };
    options.body = '{"bench":1}';
  } else if (workload === 'apollo') {
    // Checked like the real mutation's answers: 2xx and no `errors`.
    options.url = `${base}/graphql`;
    options.requests = [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: APOLLO_CEILING_BODY,
        onResponse: (status, body) => {
          if (status >= 200 && status < 300 && !body.includes('"errors"')) counters.ok++;
          else {
            counters.failed++;
            if (!counters.sample) counters.sample = `${status} ${body.slice(0, 300)}`;
          }
        },
      },
    ];
  } else {
    if (!pool) throw new Error('move workloads need a game pool');
    options.setupClient = moveClientSetup(workload, pool, connections, counters, live);
  }
  const result = await autocannon(options);
  await pool?.settle();
  // Games whose last answer arrived are still playable: hand them back for the next run.
  for (const conn of live) if (conn.game && !conn.awaiting) pool?.give(conn.game);

  const ok = express ? result['2xx'] : counters.ok;
  // The express ceilings' non-2xx answers are its failures; the others count theirs in onResponse.
  const failures = (express ? result.non2xx : counters.failed) + result.errors + result.timeouts;
  if (counters.sample) console.error(`  ${workload}: first failure: ${counters.sample}`);
  return {
    run,
    workload,
    connections,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures,
    inbandCreates: counters.creates,
    served: result.requests.total,
  };
}
