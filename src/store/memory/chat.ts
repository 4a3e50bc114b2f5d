import { EventEmitter } from 'node:events';
import {
  pageOfChat,
  type ChatDraft,
  type ChatRetention,
  type ChatSignal,
  type ChatStore,
  type StoredChatMessage,
} from '../store';

/** One game's chat in this process. */
interface GameChat {
  count: number;
  messages: StoredChatMessage[];
  readonly muted: Set<number>;
  /** When the whole chat is dropped (ms), like the Redis keys' TTL. */
  expires: number;
}

/** Chats in this process: what the Redis store keeps (capped list, count, mutes, expiry), in maps. */
export class MemoryChatStore implements ChatStore {
  private readonly chats = new Map<string, GameChat>();
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  constructor(private readonly now: () => number = Date.now) {}

  async append(draft: ChatDraft, retention: ChatRetention): Promise<StoredChatMessage> {
    const chat = this.live(draft.game) ?? { count: 0, messages: [], muted: new Set<number>(), expires: 0 };
    chat.count += 1;
    const message: StoredChatMessage = { id: String(chat.count), ...draft };
    chat.messages.push(message);
    if (chat.messages.length > retention.keep) chat.messages = chat.messages.slice(-retention.keep);
    chat.expires = this.now() + retention.ttlMs;
    this.chats.set(draft.game, chat);
    this.emit(draft.game, { type: 'message', message });
    return message;
  }

  async list(game: string, limit: number, after?: string): Promise<StoredChatMessage[]> {
    return pageOfChat(this.live(game)?.messages ?? [], limit, after);
  }

  async setMute(game: string, seat: number, muted: boolean, ttlMs: number): Promise<boolean> {
    const chat = this.live(game) ?? { count: 0, messages: [], muted: new Set<number>(), expires: 0 };
    chat.expires = this.now() + ttlMs;
    this.chats.set(game, chat);
    if (chat.muted.has(seat) === muted) return false;
    if (muted) chat.muted.add(seat);
    else chat.muted.delete(seat);
    this.emit(game, { type: 'mute', seat, muted });
    return true;
  }

  async forget(game: string, account: string): Promise<number> {
    const chat = this.live(game);
    if (!chat) return 0;
    const before = chat.messages.length;
    chat.messages = chat.messages.filter((m) => m.account !== account);
    return before - chat.messages.length;
  }

  async mutedSeats(game: string): Promise<number[]> {
    return [...(this.live(game)?.muted ?? [])].sort((a, b) => a - b);
  }

  async subscribe(game: string, listener: (signal: ChatSignal) => void): Promise<() => Promise<void>> {
    // Each listener parses its own copy, as from Redis.
    const handler = (json: string) => listener(JSON.parse(json) as ChatSignal);
    this.emitter.on(game, handler);
    return async () => {
      this.emitter.off(game, handler);
    };
  }

  /** Asynchronous like Redis pub/sub: a writer never runs a subscriber in its own stack. */
  private emit(game: string, signal: ChatSignal): void {
    const json = JSON.stringify(signal);
    setImmediate(() => this.emitter.emit(game, json));
  }

  private live(game: string): GameChat | undefined {
    const chat = this.chats.get(game);
    if (chat && chat.expires <= this.now()) {
      this.chats.delete(game);
      return undefined;
    }
    return chat;
  }
}
