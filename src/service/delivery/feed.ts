import { other } from '../../engines/types';
import {
  appFeedOwner,
  sharedUpTo,
  type FeedEvent,
  type FeedEventType,
  type FeedPage,
  type Notice,
  type Storage,
  type StoredGame,
} from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import { GameError, toGameError } from '../errors';
import type { GameHeadView, MoveView } from '../game/view';
import { rematchNotices } from '../game/rematch-rules';
import { slimNotice } from './feed-events';

/** Events read from the store per round trip while catching up. */
const PAGE = 500;
/** Waits between tries of a follow's catch-up read that failed (about 3 s in all). */
const READ_RETRIES_MS = [100, 200, 400, 800, 1600];

/** Feed epoch ids as clients pass them back. */
const EPOCH = /^[A-Za-z0-9_-]{1,32}$/;

/** Where a client resumes: after `after` (a seq), in `epoch` when it names one. */
export interface FeedCursor {
  readonly after: number;
  readonly epoch?: string;
}

/** The accounts bound to a game's seats (none for seat-token games). */
export function gameAccounts(game: StoredGame): string[] {
  return game.seats.flatMap((s) => (s.account ? [s.account] : []));
}

/**
 * The feed events a game write causes, derived from the game before and after it, so that every
 * action (move, draw, takeback, resign, abort, timeout) notifies the same way. Every new version of
 * a game is an event to each account: a change no other event names to it (a vacation moving the
 * deadline or showing on a seat, one's own takeback offer) is `game.updated`, so that a client
 * holding the old version always hears of the new one. Events carry
 * the game's head (`game`, without its moves) and, for a move, the move: O(1) in the game's length,
 * in the slim form that feeds store (feed-events.ts; rendered back when read: feed-render.ts).
 */
export function gameNotices(
  before: StoredGame,
  after: StoredGame,
  view: { readonly game: GameHeadView; readonly move: MoveView | null },
  at: string,
): Notice[] {
  const to = gameAccounts(after);
  if (to.length === 0) return [];
  const notices: Notice[] = [];
  const notice = (type: FeedEventType, data: Record<string, unknown>) => notices.push({ to, type, at, data });
  const game = view.game;
  if (after.moves.length > before.moves.length && view.move) {
    const played = view.move;
    notice('game.moved', { game, move: played.notation, seat: played.seat, played });
  }
  if (after.drawOffer !== null && after.drawOffer !== before.drawOffer) {
    notice('draw.offered', { game, by: after.drawOffer });
  }
  if (before.drawOffer !== null && after.drawOffer === null && after.status === 'ongoing') {
    notice('draw.declined', { game, by: other(before.drawOffer) });
  }
  takebackNotices(before, after, game, (type, accounts, data) => {
    if (accounts.length > 0) notices.push({ to: accounts, type, at, data });
  });
  if (before.status === 'ongoing' && after.status === 'finished') {
    notice('game.finished', { game, result: game.result });
  }
  notices.push(...rematchNotices(before, after, game, at));
  // Every account hears of every version: those no event above names get `game.updated`.
  const told = new Set(notices.flatMap((n) => n.to));
  const untold = to.filter((account) => !told.has(account));
  if (untold.length > 0 && after.version !== before.version) {
    notices.push({ to: untold, type: 'game.updated', at, data: { game } });
  }
  // Stored slim (feed-events.ts); a move's details may be described again from the position before it.
  const from = after.moves.length === before.moves.length + 1 ? before.position : undefined;
  return notices.map((n) => slimNotice(n, from));
}

/**
 * A takeback's events: `takeback.offered` to the opponent of the seat that offers, `takeback.declined`
 * to the seat whose offer was declined (a move that clears an offer is its `game.moved`), and
 * `game.taken_back` with the number of plies to both.
 */
function takebackNotices(
  before: StoredGame,
  after: StoredGame,
  game: GameHeadView,
  notice: (type: FeedEventType, to: string[], data: Record<string, unknown>) => void,
): void {
  const accountOf = (seat: number) => {
    const account = after.seats[seat]?.account;
    return account ? [account] : [];
  };
  const offer = after.takebackOffer ?? null;
  const previous = before.takebackOffer ?? null;
  if (offer !== null && offer.seat !== previous?.seat) {
    notice('takeback.offered', accountOf(other(offer.seat)), { game, by: offer.seat });
  }
  if (after.ply < before.ply) {
    notice('game.taken_back', gameAccounts(after), { game, plies: before.ply - after.ply });
  } else if (previous !== null && offer === null && after.status === 'ongoing' && after.ply === before.ply) {
    notice('takeback.declined', accountOf(previous.seat), { game, by: other(previous.seat) });
  }
}

/** Whose feed a caller reads (and whether it may): an account id, or an app feed's owner id. */
export type FeedOwnerOf = (credential: Credential) => Promise<string>;

/** The caller's account's feed: an API token with game:read. */
export function accountFeedOwner(auth: Authenticator): FeedOwnerOf {
  return async (credential) => (await auth.requireAccount(credential, 'game:read')).account.id;
}

/** The caller's app's feed (every event of its accounts): its key with the scope app:webhooks. */
export function appFeedOwnerOf(auth: Authenticator): FeedOwnerOf {
  return async (credential) => appFeedOwner((await auth.requireApp(credential, 'app:webhooks')).app.id);
}

/**
 * One account's events (or an app's: its accounts' events, each naming its `account`): numbered,
 * resumable, live. Clients name where they are by the epoch and seq of the last event they
 * handled; when the store came back older and lost events they saw, resuming fails with
 * FEED_EPOCH_CHANGED (see checkEpoch).
 */
export class FeedService {
  private readonly ownerOf: FeedOwnerOf;

  constructor(
    private readonly storage: Storage,
    auth: Authenticator,
    ownerOf?: FeedOwnerOf,
  ) {
    this.ownerOf = ownerOf ?? accountFeedOwner(auth);
  }

  /**
   * The account's events after a cursor, or after a seq (a page, for clients that poll): `next` is
   * the seq to pass as `after` next time (the page's last event, or `after` itself when none came),
   * `last` the feed's newest seq, `epoch` the feed's epoch.
   */
  async read(
    credential: Credential,
    from: FeedCursor | number,
    limit = 100,
  ): Promise<{ events: FeedEvent[]; next: number; last: number; epoch: string }> {
    const owner = await this.ownerOf(credential);
    const cursor = typeof from === 'number' ? { after: from } : from;
    checkCursor(cursor);
    if (!Number.isInteger(limit) || limit < 1 || limit > PAGE) {
      throw new GameError('INVALID_INPUT', `limit must be a whole number from 1 to ${PAGE}`);
    }
    const page = await this.storage.feed.read(owner, cursor.after, limit);
    checkEpoch(cursor, page);
    checkResumable(cursor.after, page.first, page.last);
    return {
      events: [...page.events],
      next: page.events.at(-1)?.seq ?? cursor.after,
      last: page.last,
      epoch: page.epoch,
    };
  }

  /**
   * Every event after `cursor` (default: only events from now on), each exactly once and in order:
   * missed ones from the stored feed first, then live ones. A gap in the live flow (a message lost
   * between nodes) is filled from the stored feed. Fails with EVENTS_EXPIRED when the events
   * after the cursor were trimmed, FEED_EPOCH_CHANGED when the store lost events the client saw.
   * `onError` ends the follow when the store fails mid-stream, or when the feed begins a new epoch
   * (a GameError FEED_EPOCH_CHANGED: the client resumes with what it says).
   */
  async follow(
    credential: Credential,
    from: FeedCursor | number | undefined,
    listener: (event: FeedEvent) => void,
    onError: (error: unknown) => void,
  ): Promise<{
    readonly account: string;
    readonly last: number;
    readonly epoch: string;
    stop(): Promise<void>;
  }> {
    const owner = await this.ownerOf(credential);
    const cursor = typeof from === 'number' ? { after: from } : from;
    if (cursor !== undefined) checkCursor(cursor);
    const after = cursor?.after;
    const feed = this.storage.feed;
    const live: FeedEvent[] = [];
    let stopped = false;
    let ready = false;
    let last = 0;
    // One chain orders catch-up reads and live deliveries.
    let chain = Promise.resolve();
    // Subscribe before reading, so that nothing appended in between is missed.
    const unsubscribe = await feed.subscribe(
      owner,
      (event) => {
        live.push(event);
        if (ready) chain = chain.then(drain).catch(fail);
      },
      // The live connection dropped and is back: what was appended meanwhile never came live,
      // so read it from the stored feed (an event seen live later is skipped by its seq).
      () => {
        if (ready) chain = chain.then(() => fill(Number.MAX_SAFE_INTEGER)).catch(fail);
      },
    );
    let first;
    try {
      first = await feed.read(owner, after ?? 0, after === undefined ? 1 : PAGE);
      if (cursor !== undefined) {
        checkEpoch(cursor, first);
        checkResumable(cursor.after, first.first, first.last);
      }
    } catch (error) {
      await unsubscribe();
      throw error;
    }
    const start = first.epoch;
    let epoch = start;
    last = after ?? first.last;
    /**
     * The feed began another epoch since this follow started: go on in it when everything
     * delivered is still its history; otherwise the client must re-read and resume (the error
     * says how). True when the follow ended.
     */
    const moved = (page: FeedPage) => {
      if (page.epoch === epoch) return false;
      const shared = sharedUpTo(page.epochs, epoch);
      if (last <= shared) {
        epoch = page.epoch;
        return false;
      }
      fail(epochChanged(epoch, page.epoch, Math.min(shared, page.last), page.last));
      return true;
    };
    const deliver = (event: FeedEvent) => {
      if (stopped || event.seq !== last + 1) return;
      last = event.seq;
      listener(event);
    };
    /**
     * A page of the stored feed after `last`. The store may still be reconnecting when the live
     * connection says it is back (a restart): a failed read is tried again for a few seconds
     * before the follow ends, so that a short outage does not end every open stream.
     */
    const readAfterLast = async (): Promise<FeedPage> => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await feed.read(owner, last, PAGE);
        } catch (error) {
          const outage = toGameError(error).code === 'STORE_UNAVAILABLE';
          if (stopped || !outage || attempt >= READ_RETRIES_MS.length) throw error;
          await new Promise((resolve) => setTimeout(resolve, READ_RETRIES_MS[attempt]));
        }
      }
    };
    /** Reads the stored feed until `last` reaches `upTo` (or the feed's end). */
    const fill = async (upTo: number) => {
      while (!stopped && last < upTo) {
        const page = await readAfterLast();
        if (moved(page)) return;
        for (const event of page.events) if (event.seq <= upTo) deliver(event);
        if (page.events.length < PAGE) return;
      }
    };
    async function drain() {
      while (live.length > 0 && !stopped) {
        const event = live.shift() as FeedEvent;
        // Live events are new, written in the feed's current epoch: another one means the feed
        // began an epoch. The stored feed says where it parts from ours (fill ends or goes on).
        if (event.epoch !== epoch) await fill(Number.MAX_SAFE_INTEGER);
        if (stopped) return;
        if (event.seq <= last) continue;
        if (event.seq > last + 1) await fill(event.seq - 1);
        deliver(event);
      }
    }
    function fail(error: unknown) {
      if (stopped) return;
      stopped = true;
      void unsubscribe();
      onError(error);
    }
    if (after !== undefined) {
      for (const event of first.events) deliver(event);
      if (first.events.length === PAGE) chain = chain.then(() => fill(Number.MAX_SAFE_INTEGER)).catch(fail);
    }
    ready = true;
    chain = chain.then(drain).catch(fail);
    return {
      account: owner,
      last,
      epoch: start,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await unsubscribe();
      },
    };
  }
}

function checkCursor(cursor: FeedCursor): void {
  if (!Number.isInteger(cursor.after) || cursor.after < 0) {
    throw new GameError('INVALID_INPUT', 'after must be a whole number ≥ 0 (a seq from the feed)', {
      field: 'after',
    });
  }
  if (cursor.epoch !== undefined && !EPOCH.test(cursor.epoch)) {
    throw new GameError('INVALID_INPUT', 'epoch must be an epoch id from the feed', { field: 'epoch' });
  }
}

/** The error of a client whose cursor (in `from`) is past what the feed (now in `to`) still shares. */
function epochChanged(from: string, to: string, after: number, last: number): GameError {
  return new GameError(
    'FEED_EPOCH_CHANGED',
    `The event store came back older (feed epoch ${from} → ${to}): events after seq ${after} that you saw ` +
      `were lost, and their seqs now name other events. Re-read your state (GET /api/v1/account/games, ` +
      `GET /api/v1/challenges), then resume with epoch=${to}&after=${after}.`,
    { epoch: to, after, last },
  );
}

/**
 * A cursor with an epoch is good while everything up to its seq is still the feed's history: in
 * the current epoch, or in an earlier one at or before the seq where the epochs part.
 */
function checkEpoch(cursor: FeedCursor, page: FeedPage): void {
  if (cursor.epoch === undefined || cursor.epoch === page.epoch) return;
  const shared = sharedUpTo(page.epochs, cursor.epoch);
  if (cursor.after <= shared) return;
  throw epochChanged(cursor.epoch, page.epoch, Math.min(shared, page.last), page.last);
}

function checkResumable(after: number, first: number, last: number): void {
  if (after > last) {
    throw new GameError('INVALID_INPUT', `after=${after} is beyond the newest event (${last})`, {
      field: 'after',
      last,
    });
  }
  if (after + 1 < first) {
    throw new GameError('EVENTS_EXPIRED', `Events after ${after} were trimmed; the oldest kept is ${first}`, {
      first,
      last,
    });
  }
}
