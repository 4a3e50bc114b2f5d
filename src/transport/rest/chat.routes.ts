import type { Services } from '../../service';
import {
  CHAT_KEEP_MESSAGES,
  CHAT_RATE_MESSAGES,
  CHAT_RATE_WINDOW_SECONDS,
  CHAT_RETENTION_DAYS,
  CHAT_TEXT_MAX,
} from '../../service/game/chat';
import * as C from './chat.schemas';
import { idParams } from './game-writes.routes';
import { credentialOf, json, parse, problems, PUBLIC, seatSecurity, type RestRoute } from './route';

const OFF =
  'Chat is off (403 CHAT_DISABLED, `by`) when the server runs with CHAT=off (`server`), the game’s app sets ' +
  '`chat: false` (`app`), the game’s chat mode is `off` (`game`), or the mode is `seats` (the default) and ' +
  'the caller holds no seat (`spectators`).';

/** A game's chat under /api/v1/games/{id}/chat (the messages also come in the game stream, event `chat`). */
export function chatRoutes(services: Services): RestRoute[] {
  const chat = services.chat;
  return [
    {
      spec: {
        method: 'post',
        path: '/games/{id}/chat',
        operationId: 'sendChat',
        tags: ['games'],
        summary: 'Send a chat message',
        description:
          `A seat (its seat token or its account’s token), or in chat mode \`everyone\` any account that may read ` +
          `the game, writes to the game’s chat, also after the game ended. The text is 1–${CHAT_TEXT_MAX} ` +
          'characters once trimmed; control and bidi characters are removed (400 INVALID_INPUT when nothing ' +
          `is left or it is too long). At most ${CHAT_RATE_MESSAGES} messages per ${CHAT_RATE_WINDOW_SECONDS} s ` +
          'per sender and game (429 RATE_LIMITED, Retry-After). The message goes to the game stream’s readers ' +
          'and, as the feed event chat.message, to the other seats’ accounts unless they muted the chat. ' +
          OFF,
        security: seatSecurity,
        request: {
          params: idParams,
          body: { content: { 'application/json': { schema: C.SendChatBody } }, required: true },
        },
        responses: {
          201: json(C.ChatMessage, 'The message as kept'),
          ...problems(400, 401, 403, 404, 415, 429, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const body = parse(C.SendChatBody, req.body, 'body');
        res.status(201).json(await chat.send(credentialOf(req), id, body.text));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/games/{id}/chat',
        operationId: 'listChat',
        tags: ['games'],
        summary: 'Read the chat',
        description:
          'The game’s messages, oldest first: the newest `limit` (default 50), or with `after` (a message id) ' +
          `the first \`limit\` after it. A game keeps its newest ${CHAT_KEEP_MESSAGES} messages, for ` +
          `${CHAT_RETENTION_DAYS} days after the last one. The seats read it (mode \`everyone\`: whoever may read ` +
          'the game; a private game’s chat is as hidden as the game: 404 GAME_NOT_FOUND). A seat that muted ' +
          `the others gets only its own messages (\`muted\`: true). ${OFF}`,
        security: PUBLIC,
        request: { params: idParams, query: C.ChatListQuery },
        responses: { 200: json(C.ChatPage, 'A page of the chat'), ...problems(400, 401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const q = parse(C.ChatListQuery, req.query, 'query');
        res.json(
          await chat.list(credentialOf(req), id, {
            ...(q.after === undefined ? {} : { after: q.after }),
            ...(q.limit === undefined ? {} : { limit: q.limit }),
          }),
        );
      },
    },
    ...([true, false] as const).map((muted): RestRoute => ({
      spec: {
        method: muted ? 'put' : 'delete',
        path: '/games/{id}/chat/mute',
        operationId: muted ? 'muteChat' : 'unmuteChat',
        tags: ['games'],
        summary: muted ? 'Mute the others in the chat' : 'Unmute the chat',
        description: muted
          ? 'The caller’s seat stops receiving the others’ messages in this game: they are left out of its ' +
            'list, its game stream and its feed (no chat.message). Idempotent; only a seat mutes (403 FORBIDDEN).'
          : 'The caller’s seat receives the others’ messages again (those sent meanwhile too, in the list). Idempotent.',
        security: seatSecurity,
        request: { params: idParams },
        responses: { 200: json(C.ChatMute, 'The seat’s mute now'), ...problems(400, 401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        res.json(await chat.mute(credentialOf(req), id, muted));
      },
    })),
  ];
}
