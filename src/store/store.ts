import type { GameKind, Options, Outcome, Side } from '../engines/types';

// The ports between the service and storage. Two implementations (memory.ts, redis.ts) pass the
// same contract suite (test/store/store-contract.ts).

export const GAME_STATUSES = ['ongoing', 'finished'] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];

export interface MoveRecord {
  readonly ply: number;
  readonly notation: string;
  readonly seat: Side;
  readonly at: string;
  /** Engine facts about the move (captures, sowing trace), JSON. */
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface SeatRecord {
  readonly seat: Side;
  readonly name: string;
  /** The account bound to the seat; null while seats are held by seat tokens only. */
  readonly account: string | null;
}

/** The stored game: one self-describing JSON document (see DESIGN.md). */
export interface StoredGame {
  readonly id: string;
  readonly kind: GameKind;
  readonly rulesVersion: string;
  readonly options: Options;
  /** The seat that moved first. */
  readonly first: Side;
  readonly seats: readonly SeatRecord[];
  /** sha256 of each seat's secret token (never leaves the service). */
  readonly seatTokenHashes: readonly [string, string];
  readonly status: GameStatus;
  readonly outcome: Outcome | null;
  readonly ply: number;
  readonly version: number;
  /** The seat to move, or null once the game is over. */
  readonly toMove: Side | null;
  readonly position: string;
  readonly legalMoves: readonly string[];
  readonly moves: readonly MoveRecord[];
  /** A pending draw offer by that seat. */
  readonly drawOffer: Side | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface GameFilter {
  readonly kind?: GameKind;
  readonly status?: GameStatus;
}

export interface GamePage {
  readonly items: readonly StoredGame[];
  /** Pass back as `before` for the next page; null on the last page. */
  readonly next: number | null;
}

/** What a write remembers under its idempotency key: the request it was and the answer it gave. */
export interface IdempotencyRecord {
  readonly fingerprint: string;
  readonly response: StoredGame;
}

export type UpdateResult =
  | { readonly status: 'updated' }
  | { readonly status: 'conflict'; readonly currentVersion: number }
  | { readonly status: 'replayed'; readonly record: IdempotencyRecord }
  | { readonly status: 'missing' };

export interface GameStore {
  /** Store a new game (its id must be new). */
  create(game: StoredGame): Promise<void>;
  get(id: string): Promise<StoredGame | undefined>;
  /** Newest first; `before` is a previous page's `next` (games are numbered as they are created). */
  list(filter: GameFilter, limit: number, before?: number): Promise<GamePage>;
  /**
   * Atomically: if `idempotencyKey` already has a record, return it (`replayed`); else if the stored
   * version is not `expectedVersion`, `conflict`; else write `next`, remember the idempotency record
   * for 24 h, and publish `next` to the game's subscribers.
   */
  update(
    next: StoredGame,
    expectedVersion: number,
    idempotency?: { readonly key: string; readonly fingerprint: string },
  ): Promise<UpdateResult>;
  /** The record kept for a game's idempotency key, if any. */
  idempotencyRecord(gameId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Resolves when the store answers; rejects when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Live updates of games across every server node. */
export interface GameEventBus {
  /** Calls `listener` with every update of `gameId` from now on; returns the unsubscribe function. */
  subscribe(gameId: string, listener: (game: StoredGame) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface Storage {
  readonly games: GameStore;
  readonly events: GameEventBus;
  /** 'memory' or 'redis', for /readyz and logs. */
  readonly name: string;
}

/** Idempotency records live this long. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
