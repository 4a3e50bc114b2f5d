// Per-game chat: who may write and read a game's chat, its limits, its mutes and its delivery (the
// store keeps and carries it: store/ports/chat.ts).
//
// Chat is on unless the server (CHAT=off), the game's app (its `chat` setting) or the game (its
// chat mode) turns it off: CHAT_DISABLED with `by` saying which. The mode `seats` (the default)
// lets the seats write and read; `everyone` also lets spectators with an account write, and anyone
// who may read the game (audience.ts: a private game's chat is as invisible as the game) read.
// A seat may mute the others: their messages are hidden from it everywhere (the list, the game
// stream, the feed). Each message goes to the game's live subscribers and, as the feed event
// chat.message, to the accounts of the seats other than its author's (webhooks follow the feed).
import {
  OPEN_APP,
  type Notice,
  type Storage,
  type StoredChatMessage,
  type StoredGame,
} from '../../store/store';
import {
  authorizeSeat,
  playScope,
  requireScope,
  type Authenticator,
  type Caller,
  type Credential,
} from '../accounts/auth';
import { stripUnsafe } from '../accounts/names';
import { aiLevelOf } from '../bots/ai-games';
import { slimNotice } from '../delivery/feed-events';
import { GameError } from '../errors';
import { checkRead, gameNotFound, readerOf } from './audience';
import { assertGameId } from './cursors';
import type { GameService } from './service';
import { settingsView } from './settings';
import { CHAT_MODES, type ChatMode } from '../../vocabulary';

/** The stop function of a follow that follows nothing. */
const followNothing = async (): Promise<void> => undefined;

/** The longest message, in characters (code points), after cleaning and trimming. */
export const CHAT_TEXT_MAX = 280;
/** Messages one sender may send to one game per window… */
export const CHAT_RATE_MESSAGES = 5;
/** …of this many seconds (past it: RATE_LIMITED with Retry-After). */
export const CHAT_RATE_WINDOW_SECONDS = 10;
/** The newest messages a game's chat keeps. */
export const CHAT_KEEP_MESSAGES = 200;
/** Days a game's chat is kept after its last message (also after the game ended). */
export const CHAT_RETENTION_DAYS = 30;
export const CHAT_RETENTION_MS = CHAT_RETENTION_DAYS * 24 * 60 * 60 * 1000;
/** Messages a page of the list holds unless `limit` says otherwise (1–CHAT_KEEP_MESSAGES). */
export const CHAT_PAGE_DEFAULT = 50;

export type { ChatMode } from '../../vocabulary';

/** What turned a game's chat off for the caller: CHAT_DISABLED's `by`. */
export const CHAT_DISABLED_BY = ['server', 'app', 'game', 'spectators'] as const;
export type ChatDisabledBy = (typeof CHAT_DISABLED_BY)[number];

/** A chat message as clients see it. */
export type ChatMessageView = StoredChatMessage;

/** A page of a game's chat, oldest first, and whether the caller's seat mutes the others. */
export interface ChatPageView {
  readonly items: readonly ChatMessageView[];
  readonly muted: boolean;
}

/** A seat's mute, as the mute routes answer it. */
export interface ChatMuteView {
  readonly game: string;
  readonly seat: number;
  readonly muted: boolean;
}

export interface ChatOptions {
  /** false: the server's chat is off (CHAT=off); default true. */
  readonly enabled?: boolean;
}

/** The game's chat mode (its `settings.chat`; default seats). */
export function chatModeOf(game: StoredGame): ChatMode {
  const mode = settingsView(game).chat;
  // A document edited by hand (or by a later version) may say anything: unknown modes are the default.
  return (CHAT_MODES as readonly string[]).includes(mode) ? mode : 'seats';
}

/** The text as kept: unsafe characters stripped (breaks made spaces), trimmed, 1–CHAT_TEXT_MAX characters. */
export function chatText(input: unknown): string {
  if (typeof input !== 'string') {
    throw new GameError('INVALID_INPUT', 'text must be a string', { field: 'text' });
  }
  const text = stripUnsafe(input).trim();
  const length = [...text].length;
  if (length < 1 || length > CHAT_TEXT_MAX) {
    throw new GameError(
      'INVALID_INPUT',
      `text must be 1–${CHAT_TEXT_MAX} characters once trimmed (control and bidi characters removed)`,
      { field: 'text', max: CHAT_TEXT_MAX },
    );
  }
  return text;
}

function disabled(by: ChatDisabledBy, why: string): GameError {
  return new GameError('CHAT_DISABLED', why, { by });
}

/** The seat the caller holds in the game, or null (a spectator, anonymous, an app's bare key). */
function seatOf(game: StoredGame, caller: Caller): number | null {
  if (caller.kind === 'account') return game.seats.find((s) => s.account === caller.account.id)?.seat ?? null;
  if (caller.kind !== 'seat') return null;
  try {
    return authorizeSeat(game, caller);
  } catch {
    return null;
  }
}

/** A page query's checked `limit` and `after`. */
function pageOf(input: { readonly after?: string; readonly limit?: number }): {
  limit: number;
  after?: string;
} {
  const limit = input.limit ?? CHAT_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > CHAT_KEEP_MESSAGES) {
    throw new GameError('INVALID_INPUT', `limit must be a whole number from 1 to ${CHAT_KEEP_MESSAGES}`, {
      field: 'limit',
    });
  }
  if (input.after !== undefined && !/^\d{1,15}$/.test(input.after)) {
    throw new GameError('INVALID_INPUT', 'after must be a message id', { field: 'after' });
  }
  return input.after === undefined ? { limit } : { limit, after: input.after };
}

/** Whether `message` reaches a reader at `seat` whose seat mutes the others (`mutes`). */
function shownTo(message: StoredChatMessage, seat: number | null, mutes: ReadonlySet<number>): boolean {
  return seat === null || !mutes.has(seat) || message.seat === seat;
}

export class ChatService {
  private readonly enabled: boolean;
  private readonly rate;

  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly now: () => Date = () => new Date(),
    options: ChatOptions = {},
  ) {
    this.enabled = options.enabled ?? true;
    this.rate = storage.limiter({
      name: 'chat',
      points: CHAT_RATE_MESSAGES,
      windowSeconds: CHAT_RATE_WINDOW_SECONDS,
    });
  }

  /** Sends `text` to the game's chat as the caller (a seat; in mode everyone also a spectator's account). */
  async send(credential: Credential, gameId: string, text: unknown): Promise<ChatMessageView> {
    const game = await this.open(gameId, credential);
    const caller = await this.auth.identify(credential);
    const seat = seatOf(game, caller);
    let author: { account: string | null; name: string };
    if (seat !== null) {
      if (caller.kind === 'account') requireScope(caller, playScope(caller.account));
      const name = caller.kind === 'account' ? caller.account.username : game.seats[seat]?.name;
      author = {
        account: caller.kind === 'account' ? caller.account.id : null,
        name: name ?? `seat ${seat}`,
      };
    } else {
      // Not a seat: what authorizeSeat says to anonymous callers, bare app keys and others' seat tokens.
      if (caller.kind !== 'account') authorizeSeat(game, caller);
      if (caller.kind !== 'account')
        throw new GameError('FORBIDDEN', 'Only an account may chat as a spectator');
      if (chatModeOf(game) === 'seats')
        throw disabled('spectators', 'This game’s chat is for its seats only');
      requireScope(caller, playScope(caller.account));
      author = { account: caller.account.id, name: caller.account.username };
    }
    const clean = chatText(text);
    const sender = author.account ?? `seat:${seat}`;
    const verdict = await this.rate.consume(`${game.id}:${sender}`);
    if (!verdict.allowed) {
      const retryAfterSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
      throw new GameError(
        'RATE_LIMITED',
        `At most ${CHAT_RATE_MESSAGES} messages per ${CHAT_RATE_WINDOW_SECONDS} s in one game; retry in ${retryAfterSeconds} s`,
        { policy: 'chat', retryAfterSeconds },
      );
    }
    const at = this.now().toISOString();
    const message = await this.storage.chat.append(
      { game: game.id, seat, account: author.account, name: author.name, text: clean, at },
      { keep: CHAT_KEEP_MESSAGES, ttlMs: CHAT_RETENTION_MS },
    );
    await this.notify(game, message);
    return message;
  }

  /** A page of the game's chat, oldest first (without `after`: the newest `limit`), as the caller sees it. */
  async list(
    credential: Credential,
    gameId: string,
    input: { readonly after?: string; readonly limit?: number } = {},
  ): Promise<ChatPageView> {
    const page = pageOf(input);
    const { game, seat } = await this.reader(gameId, credential);
    const [messages, muted] = await Promise.all([
      this.storage.chat.list(game.id, page.limit, page.after),
      this.storage.chat.mutedSeats(game.id),
    ]);
    const mutes = new Set(muted);
    return {
      items: messages.filter((m) => shownTo(m, seat, mutes)),
      muted: seat !== null && mutes.has(seat),
    };
  }

  /** The caller's seat mutes (or no longer mutes) the others' messages in this game. Idempotent. */
  async mute(credential: Credential, gameId: string, muted: boolean): Promise<ChatMuteView> {
    const game = await this.open(gameId, credential);
    const caller = await this.auth.identify(credential);
    const seat = seatOf(game, caller);
    // Only a seat mutes: others get authorizeSeat's answer (UNAUTHENTICATED, FORBIDDEN, …).
    if (seat === null) authorizeSeat(game, caller);
    if (caller.kind === 'account') requireScope(caller, playScope(caller.account));
    const own = seat as number;
    await this.storage.chat.setMute(game.id, own, muted, CHAT_RETENTION_MS);
    return { game: game.id, seat: own, muted };
  }

  /**
   * The game's messages as `viewer` sees them (its seat's mute followed live), to `deliver`: with
   * `after` (a message id) those after it that are kept first, then each new one, once and in
   * order. A viewer who may not read the chat: refused (CHAT_DISABLED…) unless `lenient`, when
   * nothing is delivered (the game stream goes on without chat). Returns the stop function.
   */
  async follow(
    gameId: string,
    viewer: Credential,
    deliver: (message: ChatMessageView) => void,
    options: { readonly after?: string; readonly lenient?: boolean } = {},
  ): Promise<() => Promise<void>> {
    const page = pageOf({
      limit: CHAT_KEEP_MESSAGES,
      ...(options.after === undefined ? {} : { after: options.after }),
    });
    let seat: number | null;
    try {
      ({ seat } = await this.reader(gameId, viewer));
    } catch (error) {
      if (!options.lenient || !(error instanceof GameError) || error.code !== 'CHAT_DISABLED') throw error;
      // One shared function: one made here would hold this catch block's error (and its stack) for
      // as long as the stream lasts.
      return followNothing;
    }
    // Subscribe before reading the mutes and the missed messages; signals wait until both are read,
    // then apply in order (a message already delivered from the list is not delivered again).
    let mutes: Set<number> | undefined;
    let last = 0;
    const pass = (message: StoredChatMessage) => {
      if (Number(message.id) <= last) return;
      last = Number(message.id);
      if (shownTo(message, seat, mutes as Set<number>)) deliver(message);
    };
    const waiting: Array<() => void> = [];
    const stop = await this.storage.chat.subscribe(gameId, (signal) => {
      const apply = () => {
        const current = mutes as Set<number>;
        if (signal.type === 'message') pass(signal.message);
        else if (signal.muted) current.add(signal.seat);
        else current.delete(signal.seat);
      };
      if (mutes) apply();
      else waiting.push(apply);
    });
    try {
      const [muted, missed] = await Promise.all([
        this.storage.chat.mutedSeats(gameId),
        page.after === undefined ? [] : this.storage.chat.list(gameId, page.limit, page.after),
      ]);
      mutes = new Set(muted);
      for (const message of missed) pass(message);
    } catch (error) {
      await stop();
      throw error;
    }
    for (const apply of waiting) apply();
    return stop;
  }

  /** The game as the caller may read it, refused when chat is off for it (server, app, game). */
  private async open(gameId: string, credential: Credential): Promise<StoredGame> {
    if (!this.enabled) throw disabled('server', 'Chat is off on this server');
    // The game as stored (chat needs its seats and audience, not its moves' details: no replay).
    assertGameId(gameId);
    const game = await this.storage.games.get(gameId);
    if (!game) throw gameNotFound(gameId);
    await checkRead(this.auth, game, credential);
    const app = game.app ?? OPEN_APP;
    if (app !== OPEN_APP && (await this.storage.apps.getApp(app))?.settings.chat === false) {
      throw disabled('app', 'Chat is off for the games of this app');
    }
    if (chatModeOf(game) === 'off') throw disabled('game', 'Chat is off in this game');
    return game;
  }

  /** The game and the reader's seat (null: not a seat), refused to spectators of a seats-only chat. */
  private async reader(
    gameId: string,
    credential: Credential,
  ): Promise<{ game: StoredGame; seat: number | null }> {
    const game = await this.open(gameId, credential);
    const seat = seatOf(game, await readerOf(this.auth, credential));
    if (seat === null && chatModeOf(game) === 'seats') {
      throw disabled('spectators', 'This game’s chat is for its seats only');
    }
    return { game, seat };
  }

  /** chat.message to the accounts of the seats other than the author's that do not mute the others. */
  private async notify(game: StoredGame, message: StoredChatMessage): Promise<void> {
    const muted = new Set(await this.storage.chat.mutedSeats(game.id));
    const to = game.seats
      .filter((s) => s.seat !== message.seat && !muted.has(s.seat))
      .map((s) => s.account)
      .filter((a): a is string => a !== null && a !== message.account && aiLevelOf(a) === undefined);
    if (to.length === 0) return;
    const notice: Notice = {
      to: [...new Set(to)],
      type: 'chat.message',
      at: message.at,
      data: { game: this.games.headView(game), message },
    };
    // Stored slim, like a game write's notices (delivery/feed-events.ts).
    await this.storage.feed.append([slimNotice(notice)]);
  }
}
