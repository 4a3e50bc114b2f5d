// Per-game chat: each game's messages (a capped list, numbered per game, kept for a while after the
// last one), the seats that muted the others, and live delivery of both across nodes. The service
// decides who may write and read (service/game/chat.ts); the store keeps and carries.

/** One chat message as stored and shown. */
export interface StoredChatMessage {
  /** The game's count of messages: "1", "2", … (a message id names one message of its game). */
  readonly id: string;
  readonly game: string;
  /** The author's seat; null for a spectator. */
  readonly seat: number | null;
  /** The author's account; null for a seat held by a seat token. */
  readonly account: string | null;
  /** The author's username, or the seat's name for a seat-token seat. */
  readonly name: string;
  readonly text: string;
  readonly at: string;
}

/** A message before the store numbers it. */
export type ChatDraft = Omit<StoredChatMessage, 'id'>;

/** How much of a game's chat is kept: the newest `keep` messages, for `ttlMs` after the last write. */
export interface ChatRetention {
  readonly keep: number;
  readonly ttlMs: number;
}

/** What a game's chat subscribers hear: a new message, or a seat muting or unmuting the others. */
export type ChatSignal =
  | { readonly type: 'message'; readonly message: StoredChatMessage }
  | { readonly type: 'mute'; readonly seat: number; readonly muted: boolean };

export interface ChatStore {
  /**
   * Numbers the draft (the game's next id), appends it, keeps the newest `keep` messages and the
   * whole chat (messages, count, mutes) for `ttlMs` from now, and tells the game's subscribers.
   */
  append(draft: ChatDraft, retention: ChatRetention): Promise<StoredChatMessage>;
  /**
   * Messages oldest first: without `after`, the newest `limit`; with it, the first `limit` whose id
   * comes after it. Nothing for a game without chat (or whose chat expired).
   */
  list(game: string, limit: number, after?: string): Promise<StoredChatMessage[]>;
  /**
   * Records that `seat` mutes (or no longer mutes) the others' messages in the game, kept as long
   * as the chat (`ttlMs` from now); tells the subscribers. False when nothing changed.
   */
  setMute(game: string, seat: number, muted: boolean, ttlMs: number): Promise<boolean>;
  /** Removes the messages of `account` from the game's chat (an erased account's); how many went. */
  forget(game: string, account: string): Promise<number>;
  /** The seats of the game that mute the others, ascending. */
  mutedSeats(game: string): Promise<number[]>;
  /**
   * Calls `listener` with each signal of the game from now on, on any node (best effort, like the
   * game bus: `onResync` once a dropped connection is back). Returns the unsubscribe.
   */
  subscribe(
    game: string,
    listener: (signal: ChatSignal) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>>;
}

/** The page `list` answers, from a game's messages oldest first: what both stores share. */
export function pageOfChat(
  all: readonly StoredChatMessage[],
  limit: number,
  after?: string,
): StoredChatMessage[] {
  if (after === undefined) return all.slice(Math.max(0, all.length - limit));
  const from = Number(after);
  return all.filter((m) => Number(m.id) > from).slice(0, limit);
}
