// The stored form of feed events that carry a game (`data.game`, a GameHeadView): slim. A feed keeps
// every event for weeks (FEED_RETENTION_MS), one copy per account told, so a stored event keeps only
// what changes from version to version of a game and cannot be derived (SlimGame), and, for a move,
// the move (SlimMove). The public event is rendered when it is read or delivered (renderGameData),
// from the slim record, what never changes in the game (its kind, options, seats, time control…,
// read from the store: feed-render.ts) and the engine (the board, the legal moves, names), exactly as
// toGameHeadView and toMoveView build them at the write. Events stored in the full form (written
// before this one, or carrying no game) have no `v` and read as they are.
import type { AnyEngine } from '../../engines/engine';
import type { OutcomeReason, Side } from '../../engines/types';
import type { GameHead, GameStatus, Notice, StoredMoveDetails } from '../../store/store';
import { toGameHeadView, toMoveView, type GameHeadView, type MoveView } from '../game/view';
import { legalMovesOf } from '../game/rules';

/** The version of the slim form (data.v); absent: the full form, read as it is. */
export const SLIM_VERSION = 1;

/**
 * A version of a game, as a slim event stores it: what toGameHeadView cannot take from the game's
 * fixed fields or the engine. Absent optional fields are null (or the default said).
 */
export interface SlimGame {
  /** id */
  readonly i: string;
  /** version */
  readonly n: number;
  /** ply */
  readonly p: number;
  /** status (absent: ongoing) */
  readonly s?: GameStatus;
  /** toMove (absent: null) */
  readonly t?: number;
  /** position */
  readonly x: string;
  /** result: [winner, reason, score] (absent: no result) */
  readonly r?: readonly [number | null, OutcomeReason, readonly number[] | null];
  /** drawOffer */
  readonly d?: number;
  /** takebackOffer: [seat, plies] */
  readonly k?: readonly [number, number];
  /** rematch: [offeredBy, declinedBy, game] (absent: all null) */
  readonly m?: readonly [number | null, number | null, string | null];
  /** clock: [remainingMs, runningSince] (runningSeat: toMove while it runs) */
  readonly c?: readonly [readonly number[], Time | null];
  /** deadlineAt */
  readonly e?: Time;
  /** claimableAt */
  readonly a?: Time;
  /** updatedAt (absent: the event's `at`) */
  readonly u?: Time;
  /** the seats' vacationUntil (absent: none on vacation) */
  readonly y?: readonly (string | null)[];
}

/** A played move (game.moved's `played`) as a slim event stores it. */
export interface SlimMove {
  /** notation */
  readonly n: string;
  /** seat */
  readonly s: number;
  /** ply (absent: the game's ply) */
  readonly l?: number;
  /** at (absent: the event's `at`) */
  readonly a?: Time;
  /** details without their family (the kind's: taggedDetails adds it back) */
  readonly d?: StoredMoveDetails;
  /** or the position before the move, whose engine describes it (when shorter than the details) */
  readonly b?: string;
}

/** A slim event's data: the game, the move of a game.moved, and the event's other fields as they are. */
export interface SlimData {
  readonly v: typeof SLIM_VERSION;
  readonly g: SlimGame;
  readonly p?: SlimMove;
  readonly [field: string]: unknown;
}

/**
 * What never changes in a game: all that rendering reads of the game itself (any version of it;
 * fixedOf keeps this much of a head, so that a per-node cache of them stays small).
 */
export type FixedGame = Pick<
  GameHead,
  | 'id'
  | 'kind'
  | 'rulesVersion'
  | 'options'
  | 'first'
  | 'seats'
  | 'initialPosition'
  | 'rated'
  | 'settings'
  | 'rematchOf'
  | 'timeControl'
  | 'createdAt'
>;

/** The fixed fields of a game's head (see FixedGame). */
export function fixedOf(head: GameHead): FixedGame {
  return {
    id: head.id,
    kind: head.kind,
    rulesVersion: head.rulesVersion,
    options: head.options,
    first: head.first,
    seats: head.seats,
    ...(head.initialPosition !== undefined ? { initialPosition: head.initialPosition } : {}),
    ...(head.rated !== undefined ? { rated: head.rated } : {}),
    ...(head.settings !== undefined ? { settings: head.settings } : {}),
    ...(head.rematchOf !== undefined ? { rematchOf: head.rematchOf } : {}),
    ...(head.timeControl !== undefined ? { timeControl: head.timeControl } : {}),
    createdAt: head.createdAt,
  };
}

/** The slim record of a head view (`at`: the event's time; `updatedAt` is left out when the same). */
export function slimGame(game: GameHeadView, at: string): SlimGame {
  const result = game.result;
  const rematch = game.rematch;
  const vacations = game.seats.map((s) => s.vacationUntil);
  return {
    i: game.id,
    n: game.version,
    p: game.ply,
    ...(game.status !== 'ongoing' ? { s: game.status } : {}),
    ...(game.toMove !== null ? { t: game.toMove } : {}),
    x: game.position,
    ...(result ? { r: [result.winner, result.reason, result.score] as const } : {}),
    ...(game.drawOffer !== null ? { d: game.drawOffer } : {}),
    ...(game.takebackOffer ? { k: [game.takebackOffer.seat, game.takebackOffer.plies] as const } : {}),
    ...(rematch.offeredBy !== null || rematch.declinedBy !== null || rematch.game !== null
      ? { m: [rematch.offeredBy, rematch.declinedBy, rematch.game] as const }
      : {}),
    ...(game.clock
      ? {
          c: [
            game.clock.remainingMs,
            game.clock.runningSince === null ? null : time(game.clock.runningSince, at),
          ] as const,
        }
      : {}),
    ...(game.deadlineAt !== null ? { e: time(game.deadlineAt, at) } : {}),
    ...(game.claimableAt !== null ? { a: time(game.claimableAt, at) } : {}),
    ...(game.updatedAt !== at ? { u: time(game.updatedAt, at) } : {}),
    ...(vacations.some((v) => v !== null) ? { y: vacations } : {}),
  };
}

/**
 * The slim record of a played move. `before`: the position it was played from, stored instead of
 * the details when shorter (the engine describes the move again at render).
 */
export function slimMove(played: MoveView, game: GameHeadView, at: string, before?: string): SlimMove {
  let details: Record<string, unknown> | null = played.details;
  if (details !== null && Object.keys(details)[0] === 'family') {
    const { family: _family, ...rest } = details;
    details = rest;
  }
  const detailsJson = details === null ? '' : JSON.stringify(details);
  return {
    n: played.notation,
    s: played.seat,
    ...(played.ply !== game.ply ? { l: played.ply } : {}),
    ...(played.at !== at ? { a: time(played.at, at) } : {}),
    ...(details === null
      ? {}
      : before !== undefined && before.length + 2 < detailsJson.length
        ? { b: before }
        : { d: details as StoredMoveDetails }),
  };
}

/**
 * A notice in the stored form: its `game` slim (with, for game.moved, its move), the rest of its
 * data as it is. Notices without a head view first in their data stay as they are. `before`: the
 * position the notice's move was played from (see slimMove).
 */
export function slimNotice(notice: Notice, before?: string): Notice {
  const data = notice.data;
  const keys = Object.keys(data);
  if (keys[0] !== 'game' || !isHeadView(data.game)) return notice;
  const game = data.game;
  const { game: _game, ...rest } = data;
  if (notice.type === 'game.moved' && keys.join() === 'game,move,seat,played') {
    const played = data.played as MoveView;
    if (data.move === played.notation && data.seat === played.seat) {
      return {
        ...notice,
        data: { v: SLIM_VERSION, g: slimGame(game, notice.at), p: slimMove(played, game, notice.at, before) },
      };
    }
  }
  if (
    notice.type === 'game.finished' &&
    keys.join() === 'game,result' &&
    sameJson(data.result, game.result)
  ) {
    return { ...notice, data: { v: SLIM_VERSION, g: slimGame(game, notice.at) } };
  }
  if ('v' in rest || 'g' in rest || 'p' in rest) return notice;
  return { ...notice, data: { v: SLIM_VERSION, g: slimGame(game, notice.at), ...rest } };
}

/** Whether an event's data is in the slim form (renderGameData reads it). */
export function isSlim(data: Readonly<Record<string, unknown>>): data is SlimData {
  return data.v === SLIM_VERSION && typeof data.g === 'object' && data.g !== null;
}

/**
 * The id and status of the game an event's data tells of, in either form (slim or full), without
 * rendering it: for readers that need no more (the turn driver). Undefined for events without one.
 */
export function gameOfData(
  data: Readonly<Record<string, unknown>>,
): { readonly id: string; readonly status: GameStatus } | undefined {
  if (isSlim(data))
    return typeof data.g.i === 'string' ? { id: data.g.i, status: data.g.s ?? 'ongoing' } : undefined;
  const game = data.game as { id?: unknown; status?: unknown } | undefined;
  if (!game || typeof game.id !== 'string' || typeof game.status !== 'string') return undefined;
  return { id: game.id, status: game.status as GameStatus };
}

/**
 * The public data of a slim event: `fixed` is the game (any version: only what never changes is
 * read from it), `at` the event's time. Byte for byte what the write's gameNotices built.
 */
export function renderGameData(
  engine: AnyEngine,
  fixed: FixedGame,
  type: string,
  data: SlimData,
  at: string,
): { readonly data: Record<string, unknown>; readonly game: GameHeadView } {
  const { v: _v, g, p, ...rest } = data;
  const game = renderGame(engine, fixed, g, at);
  if (type === 'game.moved' && p !== undefined) {
    const played = renderMove(engine, fixed, game, p, at);
    return { data: { game, move: played.notation, seat: played.seat, played }, game };
  }
  if (type === 'game.finished' && !('result' in rest)) return { data: { game, result: game.result }, game };
  return { data: { game, ...rest }, game };
}

/** The head view of one version of a game, from its fixed fields and its slim record. */
export function renderGame(engine: AnyEngine, fixed: FixedGame, g: SlimGame, at: string): GameHeadView {
  const state = engine.parseState(g.x, fixed.options);
  if (!state.ok) throw new Error(`stored position of ${g.i} does not parse: ${state.error.message}`);
  const result = g.r;
  const head: GameHead = {
    ...fixed,
    // Secrets are never in a view: toGameHeadView does not read them.
    seatTokenHashes: ['', ''],
    seats: fixed.seats.map((s, i) => ({ ...s, vacationUntil: g.y?.[i] ?? null })),
    status: g.s ?? 'ongoing',
    outcome: result
      ? {
          ...(result[0] !== null ? { winner: result[0] as Side } : {}),
          reason: result[1],
          ...(result[2] !== null ? { score: result[2] as [number, number] } : {}),
        }
      : null,
    ply: g.p,
    version: g.n,
    toMove: (g.t ?? null) as Side | null,
    position: g.x,
    legalMoves: (g.s ?? 'ongoing') === 'ongoing' ? legalMovesOf(engine, state.value) : [],
    drawOffer: (g.d ?? null) as Side | null,
    rematch: {
      offeredBy: (g.m?.[0] ?? null) as Side | null,
      declinedBy: (g.m?.[1] ?? null) as Side | null,
      game: g.m?.[2] ?? null,
    },
    takebackOffer: g.k ? { seat: g.k[0] as Side, toPly: g.p - g.k[1] } : null,
    clock: g.c
      ? {
          remainingMs: g.c[0] as [number, number],
          runningSince: g.c[1] === null ? null : iso(g.c[1], at),
        }
      : null,
    deadlineAt: g.e === undefined ? null : iso(g.e, at),
    updatedAt: g.u === undefined ? at : iso(g.u, at),
  };
  const view = toGameHeadView(engine, head, 0, { state: state.value });
  return { ...view, claimableAt: g.a === undefined ? null : iso(g.a, at) };
}

/** A game.moved's `played`, as toMoveView built it at the write. */
function renderMove(
  engine: AnyEngine,
  fixed: FixedGame,
  game: GameHeadView,
  p: SlimMove,
  at: string,
): MoveView {
  return toMoveView(engine, {
    ply: p.l ?? game.ply,
    notation: p.n,
    seat: p.s as Side,
    at: p.a === undefined ? at : iso(p.a, at),
    ...(p.d !== undefined
      ? { details: p.d }
      : p.b !== undefined
        ? { details: describe(engine, fixed, p) }
        : {}),
  });
}

/** The details of a move from the position before it (as the write described it). */
function describe(engine: AnyEngine, fixed: FixedGame, p: SlimMove): StoredMoveDetails {
  const state = engine.parseState(p.b as string, fixed.options);
  const move = state.ok ? engine.parseMove(state.value, p.n) : state;
  const details = state.ok && move.ok ? engine.describeMove?.(state.value, move.value) : undefined;
  if (!details || !('legal' in details ? details.legal : true)) {
    throw new Error(`stored move ${p.n} of ${fixed.id} does not replay from its position`);
  }
  return details as StoredMoveDetails;
}

/**
 * A time as a slim event stores it: ms after the event's `at` (a number) when the ISO text is what
 * toISOString gives back for it, else the text itself.
 */
export type Time = number | string;

function time(value: string, at: string): Time {
  const ms = Date.parse(value);
  const base = Date.parse(at);
  if (!Number.isFinite(ms) || !Number.isFinite(base) || new Date(ms).toISOString() !== value) return value;
  return ms - base;
}

function iso(value: Time, at: string): string {
  return typeof value === 'string' ? value : new Date(Date.parse(at) + value).toISOString();
}

function isHeadView(value: unknown): value is GameHeadView {
  if (typeof value !== 'object' || value === null) return false;
  const game = value as Partial<GameHeadView>;
  return typeof game.id === 'string' && typeof game.position === 'string' && Array.isArray(game.seats);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
