import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CHAT_KEEP_MESSAGES, CHAT_TEXT_MAX } from '../../service/game/chat';
import type { McpContext } from './context';
import { READ, run, WRITE } from './results';

// A game's chat: send a message, read the messages (the same service calls as REST's sendChat and listChat).

const gameId = z.string().describe('The game id');

export function registerChatTools(server: McpServer, ctx: McpContext): void {
  const { services, credential } = ctx;

  server.registerTool(
    'send_chat',
    {
      title: 'Send a chat message',
      description:
        `Write to a game’s chat as my seat (1–${CHAT_TEXT_MAX} characters; at most 5 messages per 10 s). ` +
        'The opponent reads it in the game and gets it in its feed unless it muted the chat. Refused with ' +
        'CHAT_DISABLED when chat is off for the game.',
      inputSchema: { gameId, text: z.string().describe('The message') },
      // Each call sends one more message: not idempotent.
      annotations: { ...WRITE, idempotentHint: false },
    },
    ({ gameId: id, text }) => run(async () => ({ message: await services.chat.send(credential, id, text) })),
  );

  server.registerTool(
    'read_chat',
    {
      title: 'Read a game’s chat',
      description:
        'The messages of a game’s chat, oldest first: the newest `limit` (default 50), or those after the ' +
        'message id `after` (to read only what is new since the last call).',
      inputSchema: {
        gameId,
        after: z.string().optional().describe('A message id: only the messages after it'),
        limit: z.number().int().min(1).max(CHAT_KEEP_MESSAGES).optional(),
      },
      annotations: READ,
    },
    ({ gameId: id, after, limit }) =>
      run(async () => {
        const page = await services.chat.list(credential, id, {
          ...(after === undefined ? {} : { after }),
          ...(limit === undefined ? {} : { limit }),
        });
        return { messages: page.items, muted: page.muted };
      }),
  );
}
