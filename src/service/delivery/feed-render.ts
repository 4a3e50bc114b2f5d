// Where slim feed events (feed-events.ts) become public ones: a feed port that renders every event
// it reads or delivers live, installed once where the services get their storage (withRenderedFeed),
// so that every reader (FeedService, the webhook worker and redelivery, the app feed, account-games,
// export) sees the events as they were written (the turn driver reads only an event's game id and
// status: gameOfData, unrendered). The store below keeps and forwards the slim form as it is (app
// feeds copy it).
import type { AnyEngine } from '../../engines/engine';
import type { EventFeed, FeedEvent, FeedPage, GameStore, Notice, Storage } from '../../store/store';
import { engineFor } from '../game/rules';
import { fixedOf, isSlim, renderGameData, type FixedGame, type SlimData } from './feed-events';

export interface FeedRenderOptions {
  /** Games whose fixed fields a node keeps (default 10,000): they never change, read once. */
  readonly maxGames?: number;
  /** How long a node keeps a game's fixed fields (default 1 h). */
  readonly maxAgeMs?: number;
  /** Rendered events a node keeps (default 2,000): each is rendered once for all its readers. */
  readonly maxViews?: number;
  /** The engine of a kind (default the server's). */
  readonly engineFor?: (kind: string) => AnyEngine;
  readonly now?: () => number;
}

/** Renders slim events, with bounded per-node caches of games' fixed fields and of rendered events. */
export class FeedRenderer {
  private readonly fixed = new Map<string, { readonly head: FixedGame; readonly until: number }>();
  /** Rendered event data by its stored form (shared: readers never change it). */
  private readonly views = new Map<string, Record<string, unknown>>();
  private readonly maxGames: number;
  private readonly maxAgeMs: number;
  private readonly maxViews: number;
  private readonly engineFor: (kind: string) => AnyEngine;
  private readonly now: () => number;

  constructor(
    private readonly games: Pick<GameStore, 'heads'>,
    options: FeedRenderOptions = {},
  ) {
    this.maxGames = options.maxGames ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? 60 * 60 * 1000;
    this.maxViews = options.maxViews ?? 2_000;
    this.engineFor = options.engineFor ?? engineFor;
    this.now = options.now ?? Date.now;
  }

  /** The public events of `events` (those in the full form as they are), their games read at once. */
  async render(events: readonly FeedEvent[]): Promise<FeedEvent[]> {
    const slim = events.filter((e) => isSlim(e.data));
    if (slim.length === 0) return [...events];
    const heads = await this.headsOf([...new Set(slim.map((e) => (e.data as SlimData).g.i))]);
    return events.map((event) => {
      if (!isSlim(event.data)) return event;
      const head = heads.get(event.data.g.i);
      // A game the store no longer has (never so today: games are kept): the event as stored.
      return head ? { ...event, data: this.renderData(head, event.type, event.data, event.at) } : event;
    });
  }

  /** An event's public data: rendered once per node (the same event reaches several readers). */
  private renderData(head: FixedGame, type: string, data: SlimData, at: string): Record<string, unknown> {
    const key = `${type} ${at} ${JSON.stringify(data)}`;
    const known = this.views.get(key);
    if (known !== undefined) return known;
    const rendered = renderGameData(this.engineFor(head.kind), head, type, data, at).data;
    this.views.set(key, rendered);
    if (this.views.size > this.maxViews) this.views.delete(this.views.keys().next().value as string);
    return rendered;
  }

  /** The fixed fields of games by id (from the cache, the rest in one store read). */
  private async headsOf(ids: readonly string[]): Promise<Map<string, FixedGame>> {
    const now = this.now();
    const found = new Map<string, FixedGame>();
    const missing: string[] = [];
    for (const id of ids) {
      const entry = this.fixed.get(id);
      if (entry && entry.until > now) found.set(id, entry.head);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const heads = await this.games.heads(missing);
    missing.forEach((id, i) => {
      const stored = heads[i];
      if (stored === undefined) return;
      const head = fixedOf(stored);
      found.set(id, head);
      this.fixed.delete(id);
      this.fixed.set(id, { head, until: now + this.maxAgeMs });
      if (this.fixed.size > this.maxGames) this.fixed.delete(this.fixed.keys().next().value as string);
    });
    return found;
  }
}

/**
 * A feed that renders what it reads and delivers (see FeedRenderer); appends go to `inner` as they
 * are. Live events keep their order: one that waits for its game delays those after it. When
 * rendering a live event fails (the store is unreachable), the subscriber is told to resync
 * (`onResync`: read what it missed from the feed) instead of getting it.
 */
export class RenderedFeed implements EventFeed {
  constructor(
    private readonly inner: EventFeed,
    private readonly renderer: FeedRenderer,
  ) {}

  append(notices: readonly Notice[]): Promise<void> {
    return this.inner.append(notices);
  }

  forwardApps(): Promise<void> {
    return this.inner.forwardApps();
  }

  erase(account: string): Promise<void> {
    return this.inner.erase(account);
  }

  async read(account: string, after: number, limit: number): Promise<FeedPage> {
    const page = await this.inner.read(account, after, limit);
    return { ...page, events: await this.renderer.render(page.events) };
  }

  subscribe(
    account: string,
    listener: (event: FeedEvent) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>> {
    let waiting = 0;
    let chain = Promise.resolve();
    let stopped = false;
    const deliver = (event: FeedEvent) => {
      if (waiting === 0 && !isSlim(event.data)) {
        listener(event);
        return;
      }
      waiting++;
      const rendering = this.renderer.render([event]);
      chain = chain
        .then(() => rendering)
        .then(
          ([rendered]) => {
            if (!stopped) listener(rendered as FeedEvent);
          },
          () => {
            if (!stopped) onResync?.();
          },
        )
        .finally(() => waiting--);
    };
    return this.inner.subscribe(account, deliver, onResync).then((unsubscribe) => async () => {
      stopped = true;
      await unsubscribe();
    });
  }
}

/** `storage` with its feed rendering slim events (every service reads the feed through it). */
export function withRenderedFeed(storage: Storage, options?: FeedRenderOptions): Storage {
  if (storage.feed instanceof RenderedFeed) return storage;
  return { ...storage, feed: new RenderedFeed(storage.feed, new FeedRenderer(storage.games, options)) };
}
