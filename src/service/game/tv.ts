import type { GameKind } from '../../engines/types';
import { publiclyListed, type Storage, type StoredGame } from '../../store/store';
import { featuredOf, type FeaturedChange } from './effects';
import type { GameView } from './view';
import type { GameUpdate } from './watch';
import type { GameService } from './service';
import { SERVICE_READ } from './audience';

// TV: per kind, the featured game (the highest-rated ongoing game, then the latest started),
// followed live by ONE follower per kind and node, shared by all of that node's viewers. Candidates
// come from the per-kind candidates index (Storage.featured, one sorted set per kind in its own
// slot): a game joins it when it starts and leaves it when it ends (`feature`, after the game's own
// write). A pick reads the index's best few and ranks those still ongoing; a finished one met on
// the way (a node died between a game's end and its removal) is dropped from the index.
// A pick is made when a follower switches games, and for GET /tv at most once per kind and node
// every TV_IDLE_POLL_MS (shared by every request), never per viewer.

/** How many of the index's best candidates a pick reads and ranks. */
export const TV_CANDIDATES = 10;
/** With no ongoing game of the kind, how often a follower looks again (ms). */
export const TV_IDLE_POLL_MS = 2_000;

/** What a TV viewer gets: `featured` (a new featured game, whole) then `update`s of it. */
export type TvMessage =
  | { readonly type: 'featured'; readonly update: GameUpdate }
  | { readonly type: 'update'; readonly update: GameUpdate };

interface Viewer {
  readonly deliver: (message: TvMessage) => void;
}

/** The average of the seats' ratings at the start (an unrated seat counts 0). */
function averageRating(game: StoredGame): number {
  if (game.seats.length === 0) return 0;
  return game.seats.reduce((sum, seat) => sum + (seat.rating ?? 0), 0) / game.seats.length;
}

/** Highest average rating first, then the most recent activity; finished games dropped. */
export function rankForTv(games: readonly StoredGame[]): StoredGame[] {
  return games
    .filter((game) => game.status === 'ongoing')
    .sort((a, b) => averageRating(b) - averageRating(a) || b.updatedAt.localeCompare(a.updatedAt));
}

/**
 * Keeps `game` in its kind's TV candidates while it is ongoing (after the write that started or
 * ended it). Best effort: the game's own write is done; a candidate missing for a failed call only
 * keeps that game off TV, and a stale one is dropped by the next pick.
 */
export async function feature(storage: Storage, game: StoredGame): Promise<void> {
  return applyFeatured(storage, featuredOf(game));
}

/** Applies a write's change of TV's candidates (effects.ts decides it; see `feature`). */
export async function applyFeatured(storage: Storage, change: FeaturedChange | null): Promise<void> {
  if (change === null) return;
  try {
    if (change.add) await storage.featured.add(change.kind, change.id, change.score);
    else await storage.featured.remove(change.kind, change.id);
  } catch {
    // See above: nothing to undo.
  }
}

/** One kind's follower on this node: the featured game's watch, and the viewers it feeds. */
class TvChannel {
  readonly viewers = new Set<Viewer>();
  /** The featured game's latest version (undefined while there is none). */
  latest: GameUpdate | undefined;
  private featuredId: string | undefined;
  private stopWatch: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  closed = false;
  /** Each switch runs after the previous one. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly kind: GameKind,
    private readonly tv: TvService,
  ) {
    this.switch();
  }

  /** Picks the featured game again (after `ended`, which is left out) and follows it. */
  switch(ended?: string): void {
    this.chain = this.chain.then(() => this.follow(ended)).catch(() => this.retryLater());
  }

  private retryLater(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.switch(), TV_IDLE_POLL_MS);
    this.timer.unref();
  }

  private async follow(ended?: string): Promise<void> {
    if (this.closed) return;
    const previous = this.stopWatch;
    this.stopWatch = undefined;
    this.featuredId = undefined;
    this.latest = undefined;
    await previous?.();
    const top = (await this.tv.candidates(this.kind, true)).find((game) => game.id !== ended);
    if (this.closed) return;
    if (!top) return this.retryLater();
    const id = top.id;
    this.featuredId = id;
    let first = true;
    const stop = await this.tv.games.watch(
      id,
      (update) => {
        if (this.closed || this.featuredId !== id) return;
        this.latest = update;
        // After a takeback the game comes whole again (its move list is shorter).
        this.broadcast({ type: first || update.takenBack ? 'featured' : 'update', update });
        first = false;
        if (update.head.status === 'finished') this.switch(id);
      },
      // Lost versions or a store failure: pick again (the viewers get the game whole again).
      () => {
        if (this.featuredId === id) this.switch();
      },
      // TV follows only publicly listed games (see `pick`).
      SERVICE_READ,
    );
    if (this.closed || this.featuredId !== id) await stop();
    else this.stopWatch = stop;
  }

  private broadcast(message: TvMessage): void {
    for (const viewer of [...this.viewers]) {
      try {
        viewer.deliver(message);
      } catch {
        // One viewer's failure must not keep the others from their message.
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.viewers.clear();
    const stop = this.stopWatch;
    this.stopWatch = undefined;
    await stop?.();
  }
}

/** TV: each kind's featured game, and its live followers on this node. */
export class TvService {
  private readonly channels = new Map<GameKind, TvChannel>();

  constructor(
    private readonly storage: Storage,
    readonly games: GameService,
  ) {}

  /** The last pick of each kind and when it was made (shared by requests for TV_IDLE_POLL_MS). */
  private readonly picks = new Map<
    GameKind,
    { readonly at: number; readonly games: Promise<StoredGame[]> }
  >();

  /**
   * A kind's ongoing games, best for TV first (at most TV_CANDIDATES read). One read of the store
   * per kind and node every TV_IDLE_POLL_MS at most, however many ask (`fresh`: a switch, which must
   * not see the game that just ended as ongoing again).
   */
  async candidates(kind: GameKind, fresh = false): Promise<StoredGame[]> {
    const last = this.picks.get(kind);
    const now = Date.now();
    if (!fresh && last && now - last.at < TV_IDLE_POLL_MS) return last.games;
    const games = this.pick(kind);
    this.picks.set(kind, { at: now, games });
    games.catch(() => {
      if (this.picks.get(kind)?.games === games) this.picks.delete(kind);
    });
    return games;
  }

  /**
   * The index's best candidates of `kind` that are still ongoing, ranked (rankForTv: the index
   * orders by rating and start second; ties and activity are settled here). Finished or missing
   * ones leave the index.
   */
  private async pick(kind: GameKind): Promise<StoredGame[]> {
    const ids = await this.storage.featured.top(kind, TV_CANDIDATES);
    const games = await Promise.all(ids.map((id) => this.storage.games.get(id)));
    // Only publicly listed games are ever added (featuredOf); one that is not never stays.
    const shown = (game: StoredGame | undefined): game is StoredGame =>
      game !== undefined && publiclyListed(game);
    const stale = ids.filter((_, i) => games[i]?.status !== 'ongoing' || !shown(games[i]));
    await Promise.all(stale.map((id) => this.storage.featured.remove(kind, id)));
    return rankForTv(games.filter(shown));
  }

  /** The featured game of `kind` now (null when no game of it is ongoing); UNKNOWN_GAME_KIND. */
  async featured(kind: string): Promise<GameView | null> {
    const known = this.games.engineFor(kind).kind;
    const live = this.channels.get(known)?.latest;
    if (live && live.head.status === 'ongoing') return live.view;
    const [top] = await this.candidates(known);
    return top ? this.games.view(top) : null;
  }

  /**
   * Follows `kind`'s TV: `featured` with the featured game (at once if there is one), then its
   * updates, then `featured` again when it ends and another one is picked. Returns the stop function.
   */
  watch(kind: string, deliver: (message: TvMessage) => void): () => Promise<void> {
    const known = this.games.engineFor(kind).kind;
    let channel = this.channels.get(known);
    if (!channel || channel.closed) {
      channel = new TvChannel(known, this);
      this.channels.set(known, channel);
    }
    const joined = channel;
    const viewer: Viewer = { deliver };
    joined.viewers.add(viewer);
    if (joined.latest) deliver({ type: 'featured', update: joined.latest });
    let left = false;
    return async () => {
      if (left) return;
      left = true;
      joined.viewers.delete(viewer);
      if (joined.viewers.size === 0 && !joined.closed) {
        if (this.channels.get(known) === joined) this.channels.delete(known);
        await joined.close();
      }
    };
  }

  /** How many kinds this node follows (for tests). */
  get size(): number {
    return this.channels.size;
  }
}
