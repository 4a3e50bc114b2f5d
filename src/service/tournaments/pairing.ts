// Pairing, pure: round robin by Berger tables, Swiss by score groups (Dutch-like). Nothing here
// knows of storage or time; the director feeds it the tournament's players and history.

/** A pair of a round: `first` plays seat 0 (of the first leg); `second` null is a bye. */
export interface Pair {
  readonly first: string;
  readonly second: string | null;
}

/**
 * Every round of a round robin by Berger tables (circle method: the last seed fixed, the others
 * turning), in seed order. An odd count adds a bye (a null seat): whoever meets it has the bye.
 * Every two players meet once; colours balance to within one game.
 */
export function roundRobin(seeds: readonly string[]): Pair[][] {
  const players: Array<string | null> = [...seeds];
  if (players.length % 2 === 1) players.push(null);
  const n = players.length;
  if (n < 2) return [];
  const fixed = players[n - 1] ?? null;
  const ring = players.slice(0, n - 1);
  const m = n - 1;
  const rounds: Pair[][] = [];
  for (let r = 0; r < m; r++) {
    const round: Pair[] = [];
    const turning = ring[r] ?? null;
    // The fixed seed alternates colours round by round.
    round.push(r % 2 === 0 ? pairOf(turning, fixed) : pairOf(fixed, turning));
    for (let i = 1; i < n / 2; i++) {
      round.push(pairOf(ring[(r + i) % m] ?? null, ring[(r - i + m) % m] ?? null));
    }
    rounds.push(orderBoards(round));
  }
  return rounds;
}

function pairOf(a: string | null, b: string | null): Pair {
  if (a === null) return { first: b as string, second: null };
  return { first: a, second: b };
}

/** Games first, the bye last. */
function orderBoards(round: Pair[]): Pair[] {
  return [...round.filter((p) => p.second !== null), ...round.filter((p) => p.second === null)];
}

/** What Swiss pairing knows of a player. */
export interface SwissPlayer {
  readonly id: string;
  /** Points so far (byes included). */
  readonly score: number;
  readonly rating: number;
  /** Opponents met (each once or more). */
  readonly opponents: readonly string[];
  /** Colours played so far, oldest first: 0 = first (seat 0), 1 = second. */
  readonly colours: ReadonlyArray<0 | 1>;
  readonly byes: number;
}

/** Backtracking steps before Swiss pairing gives up avoiding repeats (bounded work per round). */
const SWISS_BUDGET = 20_000;

/**
 * One Swiss round. Players are ranked by score, then rating, then their order in `players` (the
 * seeds). An odd count gives a bye to the lowest-ranked player without one (if all had one, the
 * lowest-ranked). The others are paired top-down within score groups — the group's top half
 * against its bottom half, floating down when a group cannot be paired — never twice the same
 * pair while any pairing avoids it. Colours: the player with fewer firsts (then the one who was
 * second last, then the higher-ranked in odd rounds) plays first.
 */
export function swissRound(players: readonly SwissPlayer[], round: number): Pair[] {
  const ranked = players
    .map((p, seed) => ({ p, seed }))
    .sort((a, b) => b.p.score - a.p.score || b.p.rating - a.p.rating || a.seed - b.seed)
    .map((x) => x.p);
  let bye: SwissPlayer | undefined;
  let pool = ranked;
  if (ranked.length % 2 === 1) {
    bye = [...ranked].reverse().find((p) => p.byes === 0) ?? ranked[ranked.length - 1];
    pool = ranked.filter((p) => p !== bye);
  }
  const pairs =
    pairPool(pool, true, true) ?? pairPool(pool, true, false) ?? pairPool(pool, false, false) ?? [];
  const out = pairs.map(([a, b]) => colour(a, b, round));
  if (bye) out.push({ first: bye.id, second: null });
  return out;
}

/** The colour a player must have next (0 first, 1 second): balance beyond ±1 or the same twice running. */
function needs(p: SwissPlayer): 0 | 1 | undefined {
  const balance = p.colours.reduce<number>((b, c) => b + (c === 0 ? 1 : -1), 0);
  const [x, y] = p.colours.slice(-2);
  if (balance >= 2 || (x === 0 && y === 0)) return 1;
  if (balance <= -2 || (x === 1 && y === 1)) return 0;
  return undefined;
}

function pairPool(
  pool: readonly SwissPlayer[],
  noRepeats: boolean,
  colours: boolean,
): Array<[SwissPlayer, SwissPlayer]> | null {
  let steps = 0;
  const used = new Set<string>();
  const pairs: Array<[SwissPlayer, SwissPlayer]> = [];
  const solve = (): boolean => {
    if (++steps > SWISS_BUDGET) return false;
    const p = pool.find((x) => !used.has(x.id));
    if (!p) return true;
    used.add(p.id);
    for (const q of candidates(pool, p, used)) {
      if (noRepeats && p.opponents.includes(q.id)) continue;
      if (colours && needs(p) !== undefined && needs(p) === needs(q)) continue;
      used.add(q.id);
      pairs.push([p, q]);
      if (solve()) return true;
      pairs.pop();
      used.delete(q.id);
    }
    used.delete(p.id);
    return false;
  };
  return solve() ? pairs : null;
}

/**
 * The opponents `p` (the highest-ranked unpaired player) prefers, best first: its own score group
 * from the middle down (top half against bottom half), then the rest of the group upwards, then
 * lower groups in rank order.
 */
function candidates(pool: readonly SwissPlayer[], p: SwissPlayer, used: ReadonlySet<string>): SwissPlayer[] {
  const free = pool.filter((x) => !used.has(x.id) || x === p);
  const group = free.filter((x) => x.score === p.score);
  const half = Math.floor(group.length / 2);
  const inGroup = [...group.slice(half), ...group.slice(1, half).reverse()].filter((x) => x !== p);
  const below = free.filter((x) => x.score !== p.score && x !== p);
  return [...inGroup, ...below];
}

function colour(a: SwissPlayer, b: SwissPlayer, round: number): Pair {
  const balance = (p: SwissPlayer) =>
    p.colours.filter((c) => c === 0).length - p.colours.filter((c) => c === 1).length;
  const last = (p: SwissPlayer) => p.colours[p.colours.length - 1];
  if (balance(a) !== balance(b))
    return balance(a) < balance(b) ? { first: a.id, second: b.id } : { first: b.id, second: a.id };
  const [la, lb] = [last(a), last(b)];
  // Whoever was second last time (or whose opponent was first) plays first.
  if (la !== lb) return la === 1 || lb === 0 ? { first: a.id, second: b.id } : { first: b.id, second: a.id };
  // Same history: alternate with the higher-ranked player's (`a`) by round.
  return round % 2 === 1 ? { first: a.id, second: b.id } : { first: b.id, second: a.id };
}
