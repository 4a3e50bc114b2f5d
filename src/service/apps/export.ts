import type {
  FeedEvent,
  RatingHistoryEntry,
  Storage,
  StoredAccount,
  StoredBlock,
  StoredRating,
} from '../../store/store';
import { tokenView, type TokenView } from '../accounts/service';
import { challengeView, type ChallengeView } from '../challenges/service';
import type { GameService } from '../game/service';
import type { GameView } from '../game/view';

// An account's data, one JSON document (lifecycle.ts: the app's or the operator's export): what is
// stored about it and what it did, without secrets (token and key hashes, refresh hashes, webhook
// and push secrets are credentials, not the account's data).

/** Pages read per listing while exporting. */
const PAGE = 100;

export interface AccountExport {
  readonly exportedAt: string;
  /** Every field stored (externalId, metadata, status included). */
  readonly account: StoredAccount;
  readonly tokens: readonly (TokenView & { readonly session: string | null })[];
  readonly sessions: readonly {
    readonly id: string;
    readonly key: string;
    readonly scopes: readonly string[];
    readonly generation: number;
    readonly createdAt: string;
    readonly expiresAt: string;
    readonly revokedAt: string | null;
  }[];
  readonly webhooks: readonly {
    readonly id: string;
    readonly url: string;
    readonly events: readonly string[] | null;
    readonly createdAt: string;
  }[];
  readonly pushEndpoint: { readonly url: string; readonly createdAt: string } | null;
  /** The accounts it blocks. */
  readonly blocks: readonly StoredBlock[];
  /** Per perf: the rating and its history, newest first. */
  readonly ratings: Readonly<
    Record<string, { readonly rating: StoredRating; readonly history: readonly RatingHistoryEntry[] }>
  >;
  /** Its games (ongoing and finished), newest first, each with its moves and result. */
  readonly games: readonly GameView[];
  /** Its open challenges (made or received). */
  readonly challenges: readonly ChallengeView[];
  /** The tournaments it joined or created (ids). */
  readonly tournaments: readonly string[];
  /** The events its feed still keeps, oldest first. */
  readonly feed: readonly FeedEvent[];
}

export async function exportAccount(
  storage: Storage,
  games: GameService,
  account: StoredAccount,
  now: Date,
): Promise<AccountExport> {
  const id = account.id;
  const [tokens, sessions, webhooks, push, ratings, challenges] = await Promise.all([
    storage.accounts.listTokens(id),
    storage.apps.listSessions(id),
    storage.webhooks.listWebhooks(id),
    storage.push.getPushEndpoint(id),
    storage.ratings.get(id),
    storage.challenges.listOpen(id),
  ]);
  return {
    exportedAt: now.toISOString(),
    account,
    tokens: tokens.map((t) => ({ ...tokenView(t), session: t.session?.id ?? null })),
    sessions: sessions.map((s) => ({
      id: s.id,
      key: s.key,
      scopes: s.scopes,
      generation: s.generation,
      createdAt: s.createdAt,
      expiresAt: s.expiresAt,
      revokedAt: s.revokedAt,
    })),
    webhooks: webhooks.map(({ webhook: w }) => ({
      id: w.id,
      url: w.url,
      events: w.events,
      createdAt: w.createdAt,
    })),
    pushEndpoint: push ? { url: push.url, createdAt: push.createdAt } : null,
    blocks: await allBlocks(storage, id),
    ratings: Object.fromEntries(
      await Promise.all(
        Object.entries(ratings).map(async ([perf, rating]) => [
          perf,
          { rating, history: await allHistory(storage, id, perf) },
        ]),
      ),
    ),
    games: await allGames(storage, games, id),
    challenges: challenges.map(challengeView),
    tournaments: await allTournaments(storage, id),
    feed: await allFeed(storage, id),
  };
}

async function allBlocks(storage: Storage, id: string): Promise<StoredBlock[]> {
  const blocks: StoredBlock[] = [];
  let after: string | undefined;
  do {
    const page = await storage.blocks.listBlocks(id, PAGE, after);
    blocks.push(...page.items);
    after = page.next ?? undefined;
  } while (after !== undefined);
  return blocks;
}

async function allHistory(storage: Storage, id: string, perf: string): Promise<RatingHistoryEntry[]> {
  const entries: RatingHistoryEntry[] = [];
  let before: number | undefined;
  do {
    const page = await storage.ratings.history(id, perf, PAGE, before);
    entries.push(...page.items);
    before = page.next ?? undefined;
  } while (before !== undefined);
  return entries;
}

async function allGames(storage: Storage, games: GameService, id: string): Promise<GameView[]> {
  const views: GameView[] = [];
  let before: number | undefined;
  do {
    const page = await storage.games.list({ account: id }, PAGE, before);
    views.push(...page.items.map((game) => games.view(game)));
    before = page.next ?? undefined;
  } while (before !== undefined);
  return views;
}

async function allTournaments(storage: Storage, id: string): Promise<string[]> {
  const ids: string[] = [];
  let before: number | undefined;
  do {
    const page = await storage.tournaments.listOf(id, PAGE, before);
    ids.push(...page.items.map((t) => t.id));
    before = page.next ?? undefined;
  } while (before !== undefined);
  return ids;
}

async function allFeed(storage: Storage, id: string): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  let after = 0;
  for (;;) {
    const page = await storage.feed.read(id, after, 500);
    events.push(...page.events);
    const last = page.events[page.events.length - 1];
    if (!last || last.seq >= page.last) return events;
    after = last.seq;
  }
}
