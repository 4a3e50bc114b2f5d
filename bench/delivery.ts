// `npm run bench -- delivery`: how long a move takes to reach a watcher on another API node. Two
// built servers (dist/main.js) run on the same Redis (REDIS_URL) under one key prefix: node A takes
// the moves, node B serves the game's SSE stream (GET /games/{id}/stream) to this process. One move
// at a time, with seeded random legal moves of Kalah games (a new game when one ends), it times:
//
// (i)   from just before the move request is sent to A to the arrival on B's stream of the version
//       that move made;
// (ii)  from the arrival of A's answer to the same arrival on B (negative when B's message came
//       first);
// (iii) the baseline, after each move, in the same run: one bare Redis PUBLISH → message round trip
//       between two ioredis connections of this process (a publisher and a subscriber), with a
//       payload of BENCH_PAYLOAD_BYTES.
//
// Issue #14's target: move → subscriber delivery p99 across two API nodes ≤ 2× the bare round trip's
// p99. (i) includes A's whole request (HTTP, the move, its EVALSHA); (ii) is the part after A has
// answered. The report gives both ratios.
//
// Env: BENCH_MOVES (500 measured), BENCH_WARMUP_MOVES (20, not measured), BENCH_PAYLOAD_BYTES (512),
// BENCH_SEED (1), REDIS_URL (redis://127.0.0.1:6379), BENCH_SKIP_BUILD=1.
import Redis from 'ioredis';
import { deletePrefix, REDIS_URL } from '../test/support/redis';
import {
  benchPrefix,
  buildServer,
  call,
  median,
  openFrames,
  percentile,
  playMove,
  prng,
  serverEnv,
  startServer,
  stopChild,
  table,
  type Child,
  type CreatedGameJson,
  type GameJson,
} from './support';

const KIND = 'kalah';

/** The bare round trip: PUBLISH on one connection, the message on another. */
class RoundTrip {
  private readonly pub = new Redis(REDIS_URL);
  private readonly sub = new Redis(REDIS_URL);
  private waiting: ((at: number) => void) | undefined;

  constructor(
    private readonly channel: string,
    private readonly payload: string,
  ) {
    this.sub.on('message', (_channel: string, message: string) => {
      const at = performance.now();
      if (message === this.payload) this.waiting?.(at);
    });
  }

  async start(): Promise<void> {
    await this.sub.subscribe(this.channel);
    await this.pub.ping();
  }

  /** Milliseconds from just before PUBLISH to the message's arrival on the subscriber. */
  async once(): Promise<number> {
    const arrived = new Promise<number>((resolve) => (this.waiting = resolve));
    const sent = performance.now();
    await this.pub.publish(this.channel, this.payload);
    const at = await arrived;
    this.waiting = undefined;
    return at - sent;
  }

  stop(): void {
    this.pub.disconnect();
    this.sub.disconnect();
  }
}

interface Samples {
  /** (i) move request sent on A → the version's message on B. */
  readonly sent: number[];
  /** (ii) A's answer → the message on B. */
  readonly answered: number[];
  /** A's answer time (sent → answer), for reference. */
  readonly request: number[];
  /** (iii) bare PUBLISH → message. */
  readonly bare: number[];
  /** Bytes of B's stream messages. */
  readonly bytes: number[];
}

/** Moves played so far (warm-up included) and how many to play. */
interface Progress {
  played: number;
  readonly warmup: number;
  readonly total: number;
}

/** Plays one game on A, watched on B, until it ends or every move is played; records past the warm-up. */
async function playOne(
  a: string,
  b: string,
  random: () => number,
  roundTrip: RoundTrip,
  samples: Samples,
  progress: Progress,
): Promise<void> {
  const created = await call<CreatedGameJson>(a, 'POST', '/games', { body: { kind: KIND }, expect: 201 });
  const tokens = new Map(created.seatTokens.map((s) => [s.seat, s.token]));
  let game: GameJson = created.game;
  const stream = await openFrames(`${b}/api/v1/games/${game.id}/stream`, 'sse');
  try {
    // The first message is the game; each later one an update: {game: the head, move}.
    const versionOf = (data: Record<string, unknown>) =>
      ((data as { game?: { version?: number } }).game ?? (data as { version?: number })).version;
    await stream.until((f) => f.event === 'game' && versionOf(f.data) === game.version);
    while (game.status === 'ongoing' && game.toMove !== null && progress.played < progress.total) {
      const move = game.legalMoves[Math.floor(random() * game.legalMoves.length)] as string;
      const version = game.version + 1;
      const sent = performance.now();
      game = await playMove(a, game.id, move, tokens.get(game.toMove) as string);
      const answered = performance.now();
      if (game.version !== version) throw new Error(`move made version ${game.version}, not ${version}`);
      const frame = await stream.until((f) => f.event === 'update' && versionOf(f.data) === version);
      const bare = await roundTrip.once();
      if (++progress.played <= progress.warmup) continue;
      samples.sent.push(frame.at - sent);
      samples.answered.push(frame.at - answered);
      samples.request.push(answered - sent);
      samples.bare.push(bare);
      samples.bytes.push(frame.bytes);
    }
  } finally {
    stream.close();
  }
}

function row(label: string, values: readonly number[]): string[] {
  return [
    label,
    String(values.length),
    median(values).toFixed(2),
    percentile(values, 0.9).toFixed(2),
    percentile(values, 0.99).toFixed(2),
    Math.max(...values).toFixed(2),
  ];
}

function report(samples: Samples, payloadBytes: number): void {
  const bareP99 = percentile(samples.bare, 0.99);
  console.log(
    `\n${table([
      ['latency, ms', 'moves', 'p50', 'p90', 'p99', 'max'],
      row('(i)   move request sent on A → its version on B’s SSE stream', samples.sent),
      row('(ii)  A’s answer received → its version on B’s SSE stream', samples.answered),
      row(`(iii) bare Redis PUBLISH → message (${payloadBytes}-byte payload)`, samples.bare),
      row('      for reference: A’s move request, sent → answer', samples.request),
    ])}\n`,
  );
  const ahead = samples.answered.filter((ms) => ms < 0).length;
  console.log(
    `B’s message came before A’s answer for ${ahead} of ${samples.answered.length} moves ((ii) < 0). ` +
      `B’s messages: median ${median(samples.bytes).toFixed(0)} bytes, max ${Math.max(...samples.bytes)}.`,
  );
  const ratio = (values: number[]) => percentile(values, 0.99) / bareP99;
  const verdict = (r: number) => (r <= 2 ? 'met' : 'missed');
  console.log(
    `\n${table([
      ['p99 ratio to the bare round trip (iii)', 'value', 'target', ''],
      [
        '(i)  from the move request sent',
        `${ratio(samples.sent).toFixed(2)}×`,
        '≤ 2×',
        verdict(ratio(samples.sent)),
      ],
      [
        '(ii) from A’s answer',
        `${ratio(samples.answered).toFixed(2)}×`,
        '≤ 2×',
        verdict(ratio(samples.answered)),
      ],
    ])}\n`,
  );
  console.log(
    'Target (issue #14): move → subscriber delivery p99 across two API nodes ≤ 2× one bare Redis ' +
      'PUBLISH→message round trip. (i) counts A’s whole request; (ii) only what follows its answer.',
  );
}

export async function runDeliveryBench(): Promise<void> {
  const moves = Number(process.env.BENCH_MOVES ?? 500);
  const warmup = Number(process.env.BENCH_WARMUP_MOVES ?? 20);
  const payloadBytes = Number(process.env.BENCH_PAYLOAD_BYTES ?? 512);
  const random = prng(Number(process.env.BENCH_SEED ?? 1));
  const prefix = benchPrefix('delivery');
  buildServer();
  let nodeA: Child | undefined;
  let nodeB: Child | undefined;
  const roundTrip = new RoundTrip(`${prefix}roundtrip`, 'x'.repeat(payloadBytes));
  try {
    const env = serverEnv(REDIS_URL, prefix);
    [nodeA, nodeB] = await Promise.all([startServer('node A', env), startServer('node B', env)]);
    await roundTrip.start();
    console.log(
      `delivery bench: ${KIND}, ${warmup} warm-up + ${moves} measured moves on node A, watched on node B; ` +
        `Redis ${REDIS_URL}, prefix ${prefix}`,
    );
    const samples: Samples = { sent: [], answered: [], request: [], bare: [], bytes: [] };
    const progress: Progress = { played: 0, warmup, total: warmup + moves };
    let games = 0;
    while (progress.played < progress.total) {
      await playOne(nodeA.base, nodeB.base, random, roundTrip, samples, progress);
      games++;
    }
    console.log(`${games} games, ${samples.sent.length} moves measured`);
    report(samples, payloadBytes);
  } finally {
    roundTrip.stop();
    await Promise.all([stopChild(nodeA), stopChild(nodeB)]);
    await deletePrefix(prefix);
  }
}
