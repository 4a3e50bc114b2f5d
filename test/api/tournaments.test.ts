// ACCEPTANCE: tournaments played to the end on Redis by bot programs that use only their account
// feed and the REST endpoints. Two nodes share one Redis and both run the director: each game is
// created once (each bot's feed shows one game.started per game it plays). Kalah with 4 houses of
// 2 seeds; bot k always plays legalMoves[k mod n], so every result is known in advance.
import { getEngine } from '../../src/engines/kinds';
import * as A from '../../src/transport/rest/accounts.schemas';
import * as T from '../../src/transport/rest/tournaments.schemas';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running } from '../support/app';
import { openFeed, type FeedConnection } from '../support/feed-client';
import { uniquePrefix } from '../support/redis';

const OPTIONS = { seeds: 2, houses: 4 };
const TIME = { type: 'realtime', initialSeconds: 600, incrementSeconds: 0 };

const harness = appHarness();
let nodes: [Running, Running];
beforeAll(async () => {
  const prefix = uniquePrefix('tournament');
  const app = { tournamentSweepMs: 100 };
  nodes = [await harness.start('redis', { prefix, app }), await harness.start('redis', { prefix, app })];
});
afterAll(() => harness.stopAll());

interface Bot {
  readonly account: TestAccount;
  readonly k: number;
  readonly node: Running;
  readonly feed: FeedConnection;
  readonly events: any[];
}

async function call(
  bot: { account: TestAccount; node: Running },
  method: string,
  path: string,
  body?: object,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${bot.node.url}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...bot.account.auth, ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}

async function newBots(n: number, label: string): Promise<Bot[]> {
  const bots: Bot[] = [];
  for (let k = 0; k < n; k++) {
    const node = nodes[k % 2] as Running;
    const account = await signUp(node.app, `${label}${k}`, 'bot');
    const feed = await openFeed(node.url, account.token, { format: k % 2 === 0 ? 'sse' : 'ndjson' });
    bots.push({ account, k, node, feed, events: [] });
  }
  return bots;
}

/** Plays from the feed until `tournament.finished`. */
async function play(bot: Bot): Promise<void> {
  for (;;) {
    const message = await bot.feed.next(30_000);
    const event = message.data;
    bot.events.push(event);
    if (event.type === 'tournament.finished' || event.type === 'tournament.cancelled') return;
    if (event.type !== 'game.started' && event.type !== 'game.moved') continue;
    const game = event.data.game;
    if (game.status !== 'ongoing' || game.seats[game.toMove].account !== bot.account.id) continue;
    const move = game.legalMoves[bot.k % game.legalMoves.length];
    const res = await call(
      bot,
      'POST',
      `/games/${game.id}/moves`,
      { move },
      { 'if-match': `"${game.version}"` },
    );
    if (res.status !== 200) throw new Error(`move answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

/** The result of a game between strategies a (seat 0, moves first) and b, played by the engine here. */
function expected(a: number, b: number): 0 | 1 | 'draw' {
  const engine = getEngine('kalah')!;
  const parsed = engine.parseOptions(OPTIONS);
  if (!parsed.ok) throw new Error('options');
  let state = engine.setup(parsed.value, 0);
  for (;;) {
    const outcome = engine.outcome(state);
    if (outcome) return outcome.winner ?? 'draw';
    const moves = engine.moves(state).map((m) => engine.formatMove(state, m));
    const k = engine.turn(state) === 0 ? a : b;
    const move = engine.parseMove(state, moves[k % moves.length] as string);
    if (!move.ok) throw new Error('unparsed');
    const next = engine.play(state, move.value);
    if (!next.ok) throw new Error('illegal');
    state = next.value;
  }
}

async function runTournament(bots: Bot[], body: object) {
  const creator = bots[0] as Bot;
  const created = await call(creator, 'POST', '/tournaments', body);
  expect(created.status).toBe(201);
  expect(T.Tournament.parse(created.body)).toEqual(created.body);
  const id = created.body.id as string;
  const playing = bots.map(play);
  for (const bot of bots) {
    const joined = await call(bot, 'POST', `/tournaments/${id}/join`);
    expect(joined.status).toBe(200);
  }
  await Promise.all(playing);
  const final = await call(creator, 'GET', `/tournaments/${id}`);
  expect(final.body.status).toBe('finished');
  return final.body;
}

/** Checks the games: each pairing's games exist once, with the known result, and each bot saw each of its games start once. */
async function checkGames(bots: Bot[], t: any): Promise<Map<string, number>> {
  const byAccount = new Map(bots.map((b) => [b.account.id, b]));
  const points = new Map<string, number>(bots.map((b) => [b.account.id, 0]));
  for (const p of t.pairings) {
    if (p.second === null) {
      points.set(p.first, (points.get(p.first) ?? 0) + t.byePoints);
      continue;
    }
    expect(p.games).toHaveLength(1);
    const game = await nodes[0].storage.games.get(p.games[0]);
    expect(game?.source).toEqual({ type: 'tournament', id: t.id, round: p.round });
    expect(game?.seats.map((s) => s.account)).toEqual([p.first, p.second]);
    const result = expected(byAccount.get(p.first)!.k, byAccount.get(p.second)!.k);
    expect(game?.outcome?.winner ?? 'draw').toBe(result);
    const pts = result === 'draw' ? [0.5, 0.5] : result === 0 ? [1, 0] : [0, 1];
    expect(p.points).toEqual(pts);
    points.set(p.first, (points.get(p.first) ?? 0) + (pts[0] as number));
    points.set(p.second, (points.get(p.second) ?? 0) + (pts[1] as number));
  }
  for (const bot of bots) {
    const mine = t.pairings.filter(
      (p: any) => p.second !== null && (p.first === bot.account.id || p.second === bot.account.id),
    );
    const started = bot.events.filter((e) => e.type === 'game.started').map((e) => e.data.game.id);
    expect(started.sort()).toEqual(mine.map((p: any) => p.games[0]).sort());
    const types = bot.events.filter((e) => e.type.startsWith('tournament.')).map((e) => e.type);
    expect(types).toEqual([
      'tournament.started',
      ...Array.from({ length: t.rounds }, () => 'tournament.round_started'),
      'tournament.finished',
    ]);
    for (const e of bot.events) expect(A.FeedEvent.parse(e)).toEqual(e);
  }
  return points;
}

describe('tournaments played by bots through their feeds', () => {
  it('a round robin of 4 bots: Berger pairings, known results, standings as computed by hand', async () => {
    const bots = await newBots(4, 'rr');
    const t = await runTournament(bots, {
      name: 'RR four',
      kind: 'kalah',
      options: OPTIONS,
      timeControl: TIME,
      format: 'round-robin',
      maxPlayers: 4,
    });
    const [a, b, c, d] = bots.map((x) => x.account.id) as [string, string, string, string];
    expect(t.rounds).toBe(3);
    expect(t.pairings.map((p: any) => [p.round, p.first, p.second])).toEqual([
      [1, a, d],
      [1, b, c],
      [2, d, b],
      [2, c, a],
      [3, c, d],
      [3, a, b],
    ]);
    await checkGames(bots, t);
    // By the strategies' results (see expected()): A–D 0-1, B–C 0-1 | D–B ½-½, C–A 1-0 | C–D 1-0, A–B 0-1.
    // C 3 (SB 1½ + 0 + 1½ = 3); B and D 1½ (SB ½·1½ = ¾), drew each other, one win each: shared 2nd.
    const standings = await call(bots[0]!, 'GET', `/tournaments/${t.id}/standings`);
    expect(T.Standings.parse(standings.body)).toEqual(standings.body);
    expect(
      standings.body.rows.map((r: any) => [
        r.rank,
        r.account,
        r.score,
        r.tieBreaks.sonnebornBerger,
        r.tieBreaks.directEncounter,
        r.tieBreaks.wins,
      ]),
    ).toEqual([
      [1, c, 3, 3, 0, 3],
      [2, b, 1.5, 0.75, 0.5, 1],
      [2, d, 1.5, 0.75, 0.5, 1],
      [4, a, 0, 0, 0, 0],
    ]);
    const text = await call(bots[1]!, 'GET', `/tournaments/${t.id}/standings.txt`);
    expect(text.status).toBe(200);
    const lines = (text.body as string).split('\n');
    expect(lines[0]).toBe('RR four — round robin, kalah, round 3 of 3 (finished)');
    expect(lines[2]).toMatch(/^#\s+Player\s+Score\s+SB\s+DE\s+Wins\s+Games$/);
    expect(lines[3]).toMatch(new RegExp(`^1\\s+${bots[2]!.account.username}\\s+3\\s+3\\s+0\\s+3\\s+3$`));
    const same = await call(bots[1]!, 'GET', `/tournaments/${t.id}/standings?format=text`);
    expect(same.body).toBe(text.body);
    const [na, nb, nc, nd] = bots.map((x) => x.account.username);
    const record = (await call(bots[1]!, 'GET', `/tournaments/${t.id}/export`)).body as string;
    const game = (round: number, board: number) =>
      t.pairings.find((p: any) => p.round === round && p.board === board).games[0];
    expect(record.split('\n').slice(3, 16)).toEqual([
      'Round 1',
      `  1. ${na} 0–1 ${nd}  [${game(1, 1)}]`,
      `  2. ${nb} 0–1 ${nc}  [${game(1, 2)}]`,
      '',
      'Round 2',
      `  1. ${nd} ½–½ ${nb}  [${game(2, 1)}]`,
      `  2. ${nc} 1–0 ${na}  [${game(2, 2)}]`,
      '',
      'Round 3',
      `  1. ${nc} 1–0 ${nd}  [${game(3, 1)}]`,
      `  2. ${na} 0–1 ${nb}  [${game(3, 2)}]`,
      '',
      'RR four — round robin, kalah, round 3 of 3 (finished)',
    ]);
    expect(record.endsWith(text.body as string)).toBe(true);
  }, 120_000);

  it('a Swiss of 7 bots over 3 rounds: a bye each round to a different bot, no repeats, scores and Buchholz as counted here', async () => {
    const bots = await newBots(7, 'sw');
    const t = await runTournament(bots, {
      name: 'Swiss seven',
      kind: 'kalah',
      options: OPTIONS,
      timeControl: TIME,
      format: 'swiss',
      rounds: 3,
      maxPlayers: 7,
    });
    expect(t.pairings).toHaveLength(12);
    const byes = t.pairings.filter((p: any) => p.second === null).map((p: any) => p.first);
    expect(byes).toHaveLength(3);
    expect(new Set(byes).size).toBe(3);
    const met = t.pairings
      .filter((p: any) => p.second !== null)
      .map((p: any) => [p.first, p.second].sort().join());
    expect(new Set(met).size).toBe(met.length);
    const points = await checkGames(bots, t);
    const standings = (await call(bots[0]!, 'GET', `/tournaments/${t.id}/standings`)).body;
    expect(T.Standings.parse(standings)).toEqual(standings);
    for (const row of standings.rows) {
      expect(row.score).toBe(points.get(row.account));
      const opponents = t.pairings
        .filter((p: any) => p.second !== null && (p.first === row.account || p.second === row.account))
        .map((p: any) => (p.first === row.account ? p.second : p.first));
      expect(row.tieBreaks.buchholz).toBe(
        opponents.reduce((s: number, o: string) => s + (points.get(o) ?? 0), 0),
      );
    }
    const scores = standings.rows.map((r: any) => r.score);
    expect([...scores].sort((x: number, y: number) => y - x)).toEqual(scores);
    // Round 1 by seed (all 1500: join order): 1–4, 2–5, 3–6, the 7th has the bye.
    const ids = bots.map((b) => b.account.id);
    expect(t.pairings.filter((p: any) => p.round === 1).map((p: any) => [p.first, p.second])).toEqual([
      [ids[0], ids[3]],
      [ids[1], ids[4]],
      [ids[2], ids[5]],
      [ids[6], null],
    ]);
  }, 180_000);
});
