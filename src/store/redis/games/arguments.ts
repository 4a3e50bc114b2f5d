import { randomBytes } from 'node:crypto';
import {
  type ClockIndex,
  listingBasesOf,
  listingIndex,
  listingIndexesOf,
  type GameStatus,
  FEED_MAX_EVENTS,
  FEED_RETENTION_MS,
  type FeedOptions,
  type Notice,
  type StoredChallenge,
  type StoredGame,
  clockIndexOf,
  headOf,
  publiclyListed,
} from '../../store';
import { shardOf, shardTag } from '../keys';
import { createGame, LISTING_EPOCH_US } from './scripts';

/** Epoch ms of an ISO time, as text for a script; throws before any write on a bad time. */
export function msOf(iso: string, what: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new Error(`${what} is not a valid time: ${iso}`);
  return String(ms);
}

/** A new random feed epoch id, offered to a script in case a feed begins an epoch (feed_epoch). */
export function epochCandidate(): string {
  return randomBytes(9).toString('base64url');
}

/**
 * Notices as append_to_feed (../feed/scripts.ts) reads them (one JSON argument) for `account`'s
 * feed: the account (an app account's events are marked for its app feed), the notices, each with
 * its trimming cutoff (its time less the feed retention), and an epoch id for feeds that begin one.
 */
export function noticesArgument(notices: readonly Notice[], feed: FeedOptions, account: string): string {
  const retentionMs = feed.retentionMs ?? FEED_RETENTION_MS;
  return JSON.stringify({
    account,
    epoch: epochCandidate(),
    max: feed.maxEvents ?? FEED_MAX_EVENTS,
    notices: notices.map((n) => {
      const ms = msOf(n.at, 'notice time');
      const data = JSON.stringify(n.data);
      return {
        to: [...new Set(n.to)],
        type: n.type,
        at: n.at,
        ms,
        cutoff: Number(ms) - retentionMs,
        data,
        // The live message after its seq and epoch: FeedEvent JSON in the key order memory/feed.ts publishes.
        rest: `,"type":${JSON.stringify(n.type)},"at":${JSON.stringify(n.at)},"data":${data}}`,
      };
    }),
  });
}

/** A new game's status and the listing indexes (without prefix) it belongs to, as create_game reads them. */
export function gameIndexes(game: StoredGame): string {
  return JSON.stringify({ status: game.status, keys: listingIndexesOf(game) });
}

/** The listing indexes by status of a game, without the status (move_status appends it). */
export function statusIndexesArgument(game: StoredGame): string {
  return JSON.stringify(
    listingBasesOf(game).map((base) => listingIndex({ ...base.filter, status: '' as GameStatus })),
  );
}

/** A game's clock index entries as index_clock reads them (scores as text, '' for none). */
export function clockIndexArgument(index: ClockIndex): string {
  return JSON.stringify({
    deadline: index.deadline === null ? '' : String(index.deadline),
    reminder: index.reminder === null ? '' : String(index.reminder),
    turn: index.turn,
    accounts: index.accounts,
    mover: index.mover ?? '',
    score: String(index.moverScore),
  });
}

/** Accounts a challenge involves: challenger, destination and named players. */
export function involved(challenge: StoredChallenge): string[] {
  const accounts = [challenge.challenger, challenge.destination, ...(challenge.players ?? [])];
  return [...new Set(accounts.filter((a): a is string => a !== null))];
}

/** A non-negative integer for a stream range or count (NaN reads as 0, huge values are capped). */
export function wholeNumber(n: number): number {
  if (Number.isNaN(n) || n <= 0) return 0;
  return Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER);
}

/** Whether a write puts the game in the public listings ('1': public and of the open pool). */
export function listedArgument(game: StoredGame): '1' | '0' {
  return publiclyListed(game) ? '1' : '0';
}

/** The create script's named arguments (its rest: the outbox fields). */
export function createGameArguments(prefix: string, game: StoredGame): Parameters<typeof createGame.argv>[1] {
  const shard = shardOf(game.id);
  return {
    prefix,
    tag: shardTag(shard),
    id: game.id,
    head: JSON.stringify(headOf(game)),
    version: game.version,
    status: game.status,
    kind: game.kind,
    listingEpoch: String(LISTING_EPOCH_US),
    shard,
    moves: JSON.stringify(game.moves.map((m) => JSON.stringify(m))),
    clock: clockIndexArgument(clockIndexOf(game)),
    listed: listedArgument(game),
  };
}
