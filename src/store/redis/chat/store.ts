import type Redis from 'ioredis';
import {
  pageOfChat,
  type ChatDraft,
  type ChatRetention,
  type ChatSignal,
  type ChatStore,
  type StoredChatMessage,
} from '../../store';
import type { ChannelFanout } from '../client';
import { Keys } from '../keys';
import { appendChat, forgetChat, muteChat } from './scripts';

// A game's chat, in the game's slot: `p chat:{s}:g` (list of message JSON, oldest first, the newest
// CHAT_KEEP_MESSAGES kept), `p chatseq:{s}:g` (the count: the last id), `p chatmute:{s}:g` (set of
// the seats that mute the others), all three expiring together the retention after the last write;
// live signals on the channel `p chatlive:{s}:g` (sharded pub/sub on a Cluster).

export class RedisChatStore implements ChatStore {
  private readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly fanout: ChannelFanout,
    private readonly publish: 'PUBLISH' | 'SPUBLISH' = 'PUBLISH',
  ) {
    this.keys = new Keys(prefix);
  }

  private keysOf(game: string): { messages: string; seq: string; mutes: string } {
    return { messages: this.keys.chat(game), seq: this.keys.chatSeq(game), mutes: this.keys.chatMutes(game) };
  }

  async append(draft: ChatDraft, retention: ChatRetention): Promise<StoredChatMessage> {
    const json = await appendChat.run(this.redis, this.keysOf(draft.game), {
      draft: JSON.stringify(draft),
      keep: retention.keep,
      ttl: Math.max(1, Math.round(retention.ttlMs)),
      publish: this.publish,
      channel: this.keys.chatChannel(draft.game),
    });
    return JSON.parse(json) as StoredChatMessage;
  }

  async list(game: string, limit: number, after?: string): Promise<StoredChatMessage[]> {
    // The list is capped (CHAT_KEEP_MESSAGES): read whole, paged here as in memory.
    const all = await this.redis.lrange(this.keys.chat(game), 0, -1);
    return pageOfChat(
      all.map((json) => JSON.parse(json) as StoredChatMessage),
      limit,
      after,
    );
  }

  async setMute(game: string, seat: number, muted: boolean, ttlMs: number): Promise<boolean> {
    const changed = await muteChat.run(this.redis, this.keysOf(game), {
      seat,
      muted: muted ? '1' : '0',
      ttl: Math.max(1, Math.round(ttlMs)),
      publish: this.publish,
      channel: this.keys.chatChannel(game),
    });
    return changed === 1;
  }

  forget(game: string, account: string): Promise<number> {
    return forgetChat.run(this.redis, { messages: this.keys.chat(game) }, { account });
  }

  async mutedSeats(game: string): Promise<number[]> {
    return (await this.redis.smembers(this.keys.chatMutes(game))).map(Number).sort((a, b) => a - b);
  }

  subscribe(
    game: string,
    listener: (signal: ChatSignal) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>> {
    return this.fanout.listen(
      this.keys.chatChannel(game),
      (message) => listener(JSON.parse(message) as ChatSignal),
      onResync,
    );
  }
}
