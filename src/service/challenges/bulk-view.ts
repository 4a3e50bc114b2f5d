import type { BulkRefusal, StoredBulk } from '../../store/store';

// What the API shows of a bulk pairing (REST Bulk, GraphQL BulkPairing).

export interface BulkView {
  readonly id: string;
  readonly creator: string;
  readonly kind: string;
  readonly state: StoredBulk['state'];
  readonly rated: boolean;
  readonly timeControl: StoredBulk['timeControl'];
  readonly startAt: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Per pair: its players and its game's id (the game exists once the state is created). */
  readonly games: ReadonlyArray<{ readonly id: string; readonly players: readonly [string, string] }>;
  /** A refused bulk: why (the error it was refused with). */
  readonly refusal: BulkRefusal | null;
}

/** The view of a stored bulk. */
export function bulkView(bulk: StoredBulk): BulkView {
  return {
    id: bulk.id,
    creator: bulk.creator,
    kind: bulk.kind,
    state: bulk.state,
    rated: bulk.rated,
    timeControl: bulk.timeControl,
    startAt: bulk.startAt,
    createdAt: bulk.createdAt,
    updatedAt: bulk.updatedAt,
    games: bulk.pairs.map((p) => ({ id: p.game, players: p.accounts as [string, string] })),
    refusal: bulk.refusal ?? null,
  };
}
