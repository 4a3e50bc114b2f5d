import { createHash } from 'node:crypto';
import type { AnyEngine } from '../../engines/engine';
import type { Options } from '../../engines/types';
import { GameError } from '../errors';
import type { GameService } from './service';

// Rules verification for bot authors (as the Kalah tournament protocol has): the server poses a
// seeded set of positions, each with a legal move; the author's program answers the position after
// each move; the server scores the answers. The same kind, options, seed and count always pose the
// same set (a PRNG seeded by the seed, the engines' stable move order), so a set can be scored
// without storing anything.
//
// Each posed position is given as its string alone, and the expected answer is computed from that
// string (not from the game that led there): what a program can know is what the string says.

/** At most this many positions per set. */
export const MAX_VERIFICATION_COUNT = 100;
/** Positions per set by default. */
export const DEFAULT_VERIFICATION_COUNT = 20;
const SEED = /^[A-Za-z0-9._-]{1,64}$/;

export interface VerificationRequest {
  readonly seed: string;
  readonly count?: number;
  readonly options?: unknown;
}

export interface VerificationItem {
  readonly index: number;
  /** The position, in the kind's position notation. */
  readonly position: string;
  /** A legal move of the position, in canonical notation. */
  readonly move: string;
}

export interface VerificationSet {
  readonly kind: string;
  readonly rulesVersion: string;
  readonly options: Options;
  readonly seed: string;
  readonly count: number;
  readonly items: readonly VerificationItem[];
}

export interface ScoredItem extends VerificationItem {
  readonly correct: boolean;
  /** The answer given (null: none at this index). */
  readonly answer: string | null;
  /** Wrong answers: the position after the move, and the legal moves of the posed position. */
  readonly expected?: string;
  readonly legalMoves?: readonly string[];
  /** Wrong answers: why (does not parse, another position). */
  readonly reason?: string;
}

export interface VerificationScore {
  readonly kind: string;
  readonly rulesVersion: string;
  readonly options: Options;
  readonly seed: string;
  readonly count: number;
  readonly correct: number;
  /** Percentage of correct answers, 0–100. */
  readonly score: number;
  /** The indexes of the wrong answers. */
  readonly wrong: readonly number[];
  readonly items: readonly ScoredItem[];
}

/** Poses and scores rules-verification sets; pure computation over the engines, nothing stored. */
export class RulesVerification {
  constructor(private readonly games: GameService) {}

  /** The set for `kind`, options, seed and count. */
  pose(kind: string, request: VerificationRequest): VerificationSet {
    const { engine, options, seed, count } = this.parse(kind, request);
    const posed = this.generate(engine, options, seed, count);
    return {
      kind: engine.kind,
      rulesVersion: engine.rulesVersion,
      options,
      seed,
      count,
      items: posed.map(({ item }) => item),
    };
  }

  /**
   * Scores `answers` (by index: the position after item i's move) against the set the same kind,
   * options, seed and count pose. Answers are compared as positions: each is read with the kind's
   * position notation and written canonically, so spacing or an omitted default field is no error.
   */
  score(
    kind: string,
    request: VerificationRequest & { readonly answers: readonly unknown[] },
  ): VerificationScore {
    const { engine, options, seed, count } = this.parse(kind, request);
    if (!Array.isArray(request.answers) || request.answers.length > count) {
      throw new GameError(
        'INVALID_INPUT',
        `answers must be a list of at most ${count} positions (one per item)`,
        {
          field: 'answers',
        },
      );
    }
    const items = this.generate(engine, options, seed, count).map(({ item, expected, legalMoves }) => {
      const given = request.answers[item.index];
      const answer = typeof given === 'string' ? given : null;
      const verdict =
        answer === null ? { ok: false, reason: 'No answer' } : judge(engine, options, answer, expected);
      return verdict.ok
        ? { ...item, correct: true, answer }
        : { ...item, correct: false, answer, expected, legalMoves, reason: verdict.reason };
    });
    const correct = items.filter((i) => i.correct).length;
    return {
      kind: engine.kind,
      rulesVersion: engine.rulesVersion,
      options,
      seed,
      count,
      correct,
      score: Math.round((correct / count) * 1000) / 10,
      wrong: items.filter((i) => !i.correct).map((i) => i.index),
      items,
    };
  }

  private parse(kind: string, request: VerificationRequest) {
    const engine = this.games.engineFor(kind);
    const options = this.games.parseOptions(engine, request.options);
    if (typeof request.seed !== 'string' || !SEED.test(request.seed)) {
      throw new GameError('INVALID_INPUT', 'seed must be 1–64 characters of A-Z a-z 0-9 . _ -', {
        field: 'seed',
      });
    }
    const count = request.count ?? DEFAULT_VERIFICATION_COUNT;
    if (!Number.isInteger(count) || count < 1 || count > MAX_VERIFICATION_COUNT) {
      throw new GameError(
        'INVALID_INPUT',
        `count must be a whole number from 1 to ${MAX_VERIFICATION_COUNT}`,
        {
          field: 'count',
        },
      );
    }
    return { engine, options, seed: request.seed, count };
  }

  /** The posed items with their answers: random games from the start, cut at a random ply. */
  private generate(engine: AnyEngine, options: Options, seed: string, count: number) {
    const random = seededRandom(`${engine.kind}\n${JSON.stringify(options)}\n${seed}`);
    // How far into a game posed positions go, at most: openings, middle games and endings alike.
    const { maxPlies } = this.games.kindFor(engine.kind).verification;
    const posed = [];
    for (let index = 0; index < count; index++) {
      // A random game from the start, cut at a random ply before its end.
      let state = engine.setup(options, random(2) === 0 ? 0 : 1);
      let moves = engine.moves(state);
      const plies = random(maxPlies + 1);
      for (let ply = 0; ply < plies; ply++) {
        const next = engine.play(state, moves[random(moves.length)]);
        if (!next.ok || engine.outcome(next.value)) break;
        const after = engine.moves(next.value);
        if (after.length === 0) break;
        state = next.value;
        moves = after;
      }
      // The position as its string says it (no history): what the author's program is given.
      const read = engine.parseState(engine.formatState(state), options);
      if (!read.ok) throw new Error(`${engine.kind}: a generated position does not read back`);
      const position = read.value;
      const legal = engine.moves(position);
      const move = legal[random(legal.length)];
      const after = engine.play(position, move);
      if (!after.ok) throw new Error(`${engine.kind}: a generated move does not play`);
      posed.push({
        item: { index, position: engine.formatState(position), move: engine.formatMove(position, move) },
        expected: engine.formatState(after.value),
        legalMoves: legal.map((m) => engine.formatMove(position, m)),
      });
    }
    return posed;
  }
}

/** Is `answer` the expected position (read and written canonically)? */
function judge(
  engine: AnyEngine,
  options: Options,
  answer: string,
  expected: string,
): { ok: true } | { ok: false; reason: string } {
  const read = engine.parseState(answer.trim(), options);
  if (!read.ok) return { ok: false, reason: `Does not read as a position: ${read.error.message}` };
  if (engine.formatState(read.value) !== expected) return { ok: false, reason: 'Another position' };
  return { ok: true };
}

/**
 * A deterministic generator of whole numbers below n, from a string (sha256 seeds xorshift128+-like
 * 32-bit state; the same seed gives the same sequence on every platform and version of Node).
 */
export function seededRandom(seed: string): (n: number) => number {
  const digest = createHash('sha256').update(seed).digest();
  let a = digest.readUInt32LE(0) | 1;
  let b = digest.readUInt32LE(4) | 1;
  let c = digest.readUInt32LE(8) | 1;
  let d = digest.readUInt32LE(12) | 1;
  return (n) => {
    // xoshiro128** (Blackman & Vigna), in 32-bit integer arithmetic.
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return n <= 1 ? 0 : Math.floor((result / 2 ** 32) * n);
  };
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
