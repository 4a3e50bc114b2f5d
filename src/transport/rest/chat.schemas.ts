import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CHAT_KEEP_MESSAGES, CHAT_PAGE_DEFAULT, CHAT_TEXT_MAX } from '../../service/game/chat';
import { pageLimit } from './schemas';

// Request and response shapes of a game's chat (chat.routes.ts; the feed's chat.message carries a ChatMessage).
extendZodWithOpenApi(z);

const EXAMPLE = {
  id: '3',
  game: 'x3fT9qL2mN8a',
  seat: 0,
  account: 'alice',
  name: 'alice',
  text: 'good luck!',
  at: '2026-03-01T12:00:00.000Z',
};

export const ChatMessage = z
  .object({
    id: z.string().openapi({ description: 'The game’s count of messages ("1", "2", …): pass as `after`' }),
    game: z.string().openapi({ description: 'The game id' }),
    seat: z.number().int().nullable().openapi({ description: 'The author’s seat; null for a spectator' }),
    account: z
      .string()
      .nullable()
      .openapi({ description: 'The author’s account id; null for a seat held by a seat token' }),
    name: z
      .string()
      .openapi({ description: 'The author’s username, or the seat’s name for a seat-token seat' }),
    text: z
      .string()
      .openapi({ description: `1–${CHAT_TEXT_MAX} characters, control and bidi characters removed` }),
    at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('ChatMessage', { example: EXAMPLE });

export const ChatPage = z
  .object({
    items: z.array(ChatMessage).openapi({ description: 'Oldest first' }),
    muted: z
      .boolean()
      .openapi({ description: 'The caller’s seat mutes the others (their messages are left out)' }),
  })
  .openapi('ChatPage', { example: { items: [EXAMPLE], muted: false } });

export const SendChatBody = z
  .object({
    text: z.string().openapi({
      description: `1–${CHAT_TEXT_MAX} characters once trimmed; control and bidi characters are removed (line breaks become spaces)`,
    }),
  })
  .strict()
  .openapi('SendChatBody', { example: { text: 'good luck!' } });

export const ChatListQuery = z
  .object({
    after: z
      .string()
      .regex(/^\d{1,15}$/)
      .optional()
      .openapi({ description: 'A message id: the messages after it (default: the newest `limit`)' }),
    limit: pageLimit(CHAT_PAGE_DEFAULT, CHAT_KEEP_MESSAGES),
  })
  .strict();

export const ChatMute = z
  .object({
    game: z.string(),
    seat: z.number().int().openapi({ description: 'The caller’s seat' }),
    muted: z.boolean().openapi({ description: 'The seat mutes the others’ messages in this game' }),
  })
  .openapi('ChatMute', { example: { game: 'x3fT9qL2mN8a', seat: 1, muted: true } });
