import {
  appOf,
  ERASED_NAME_HOLD_SECONDS,
  type AccountTombstone,
  type Storage,
  type StoredAccount,
} from '../../store/store';
import { GameError } from '../errors';

// Erasure of an app account, after the lifecycle service banned it (credentials refused, tokens and
// sessions revoked, challenges closed, ongoing games forfeited). What goes: the username, display
// name, external id, metadata, tokens, sessions, webhooks, push endpoint, feed, blocks (both
// ways) and its messages in its games' chats. What stays: its finished games as they are (moves and results: its opponents' histories
// stay whole; a game stores no username, its seats name their side and the account id), its
// ratings (the opponents' changes were computed from them), and, under a tombstone name
// `deleted-<n>` (n from a store counter), its leaderboard entries and tournament standings.
//
// The account document is deleted rather than marked: every read of the account (profiles, acting
// as it, export, this service) already answers ACCOUNT_NOT_FOUND for a missing account, and a
// status no route knows could leak through one that forgot to check it. A tombstone record (id,
// app, name, time: no personal data) says the id was erased. App account ids are random, so no
// account can be given the id again; the username is held for 30 days (only a hash of it is kept).

/** How many of the account's listings are read per page while renaming. */
const PAGE = 100;

export async function eraseAccount(
  storage: Storage,
  account: StoredAccount,
  now: Date,
): Promise<{ readonly id: string; readonly name: string }> {
  const n = await storage.accounts.nextTombstone();
  const tombstone: AccountTombstone = {
    id: account.id,
    app: appOf(account),
    name: `deleted-${n}`,
    erasedAt: now.toISOString(),
  };
  await renameEverywhere(storage, account.id, tombstone.name);
  await forgetChats(storage, account.id);
  await forgetRelations(storage, account.id);
  await storage.feed.erase(account.id);
  await storage.apps.deleteSessions(account.id);
  await storage.accounts.eraseAccount(account, tombstone, ERASED_NAME_HOLD_SECONDS);
  return { id: account.id, name: tombstone.name };
}

/**
 * Its messages in the chats of its games (they carry its username and its words). Messages it wrote
 * as a spectator (chat mode everyone) in others' games stay until those chats expire.
 */
async function forgetChats(storage: Storage, id: string): Promise<void> {
  let before: number | undefined;
  do {
    const page = await storage.games.list({ account: id }, PAGE, before);
    for (const game of page.items) await storage.chat.forget(game.id, id);
    before = page.next ?? undefined;
  } while (before !== undefined);
}

/**
 * The tombstone name where the username was stored: leaderboard entries and tournament players.
 * (Games store no username: a seat names its side and the account id, which now leads nowhere.)
 */
async function renameEverywhere(storage: Storage, id: string, name: string): Promise<void> {
  await storage.ratings.renameAccount(id, name);
  let after: number | undefined;
  do {
    const page = await storage.tournaments.listOf(id, PAGE, after);
    for (const t of page.items) await renameInTournament(storage, t.id, id, name);
    after = page.next ?? undefined;
  } while (after !== undefined);
}

async function renameInTournament(storage: Storage, tournament: string, id: string, name: string) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const t = await storage.tournaments.get(tournament);
    if (!t || !t.players.some((p) => p.account === id && p.name !== name)) return;
    const players = t.players.map((p) => (p.account === id ? { ...p, name } : p));
    const next = { ...t, players, version: t.version + 1 };
    if ((await storage.tournaments.update(next, t.version)).status !== 'conflict') return;
  }
  throw new GameError('VERSION_CONFLICT', `Tournament ${tournament} is changing too fast to rename a player`);
}

/** Webhooks, push endpoint and blocks, both the account's and those naming it. */
async function forgetRelations(storage: Storage, id: string): Promise<void> {
  for (const { webhook } of await storage.webhooks.listWebhooks(id))
    await storage.webhooks.deleteWebhook(webhook);
  await storage.push.deletePushEndpoint(id);
  for (;;) {
    const page = await storage.blocks.listBlocks(id, PAGE);
    if (page.items.length === 0) break;
    await Promise.all(page.items.map((b) => storage.blocks.unblock(id, b.account)));
  }
  await Promise.all(
    (await storage.blocks.blockersOf(id)).map((blocker) => storage.blocks.unblock(blocker, id)),
  );
}
