import { other } from '../engines/types';
import type { FeedEvent, FeedEventType, Notice, Storage, StoredGame } from '../store/store';
import type { Authenticator, Credential } from './auth';
import { GameError } from './errors';
import type { GameView } from './game-view';

/** Events read from the store per round trip while catching up. */
const PAGE = 500;

/** The accounts bound to a game's seats (none for seat-token games). */
export function gameAccounts(game: StoredGame): string[] {
  return game.seats.flatMap((s) => (s.account ? [s.account] : []));
}

/**
 * The feed events a game write causes, derived from the game before and after it, so that every
 * action (move, draw, resign, abort, timeout) notifies the same way.
 */
export function gameNotices(before: StoredGame, after: StoredGame, view: GameView, at: string): Notice[] {
  const to = gameAccounts(after);
  if (to.length === 0) return [];
  const notices: Notice[] = [];
  const notice = (type: FeedEventType, data: Record<string, unknown>) => notices.push({ to, type, at, data });
  const last = after.moves[after.moves.length - 1];
  if (after.moves.length > before.moves.length && last) {
    notice('game.moved', { game: view, move: last.notation, seat: last.seat });
  }
  if (after.drawOffer !== null && after.drawOffer !== before.drawOffer) {
    notice('draw.offered', { game: view, by: after.drawOffer });
  }
  if (before.drawOffer !== null && after.drawOffer === null && after.status === 'ongoing') {
    notice('draw.declined', { game: view, by: other(before.drawOffer) });
  }
  if (before.status === 'ongoing' && after.status === 'finished') {
    notice('game.finished', { game: view, result: view.result });
  }
  return notices;
}

/** One account's events: numbered, resumable, live. */
export class FeedService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
  ) {}

  /**
   * The account's events after `after` (a page, for clients that poll): `next` is the seq to pass
   * as `after` next time (the page's last event, or `after` itself when none came), `last` the
   * feed's newest seq.
   */
  async read(
    credential: Credential,
    after: number,
    limit = 100,
  ): Promise<{ events: FeedEvent[]; next: number; last: number }> {
    const { account } = await this.auth.requireAccount(credential, 'game:read');
    checkAfter(after);
    if (!Number.isInteger(limit) || limit < 1 || limit > PAGE) {
      throw new GameError('INVALID_INPUT', `limit must be a whole number from 1 to ${PAGE}`);
    }
    const page = await this.storage.feed.read(account.id, after, limit);
    checkResumable(after, page.first, page.last);
    return { events: [...page.events], next: page.events.at(-1)?.seq ?? after, last: page.last };
  }

  /**
   * Every event after `after` (default: only events from now on), each exactly once and in order:
   * missed ones from the stored feed first, then live ones. A gap in the live flow (a message lost
   * between nodes) is filled from the stored feed. Fails with EVENTS_EXPIRED when the events
   * after `after` were trimmed. `onError` ends the follow when the store fails mid-stream.
   */
  async follow(
    credential: Credential,
    after: number | undefined,
    listener: (event: FeedEvent) => void,
    onError: (error: unknown) => void,
  ): Promise<{ readonly account: string; readonly last: number; stop(): Promise<void> }> {
    const { account } = await this.auth.requireAccount(credential, 'game:read');
    if (after !== undefined) checkAfter(after);
    const feed = this.storage.feed;
    const live: FeedEvent[] = [];
    let stopped = false;
    let ready = false;
    let last = 0;
    // One chain orders catch-up reads and live deliveries.
    let chain = Promise.resolve();
    // Subscribe before reading, so that nothing appended in between is missed.
    const unsubscribe = await feed.subscribe(account.id, (event) => {
      live.push(event);
      if (ready) chain = chain.then(drain).catch(fail);
    });
    let first;
    try {
      first = await feed.read(account.id, after ?? 0, after === undefined ? 1 : PAGE);
      if (after !== undefined) checkResumable(after, first.first, first.last);
    } catch (error) {
      await unsubscribe();
      throw error;
    }
    last = after ?? first.last;
    const deliver = (event: FeedEvent) => {
      if (stopped || event.seq !== last + 1) return;
      last = event.seq;
      listener(event);
    };
    /** Reads the stored feed until `last` reaches `upTo` (or the feed's end). */
    const fill = async (upTo: number) => {
      while (!stopped && last < upTo) {
        const page = await feed.read(account.id, last, PAGE);
        for (const event of page.events) if (event.seq <= upTo) deliver(event);
        if (page.events.length < PAGE) return;
      }
    };
    async function drain() {
      while (live.length > 0 && !stopped) {
        const event = live.shift() as FeedEvent;
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
      account: account.id,
      last,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await unsubscribe();
      },
    };
  }
}

function checkAfter(after: number): void {
  if (!Number.isInteger(after) || after < 0) {
    throw new GameError('INVALID_INPUT', 'after must be a whole number ≥ 0 (a seq from the feed)', {
      field: 'after',
    });
  }
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
