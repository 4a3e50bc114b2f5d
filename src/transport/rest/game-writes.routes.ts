import type { Request, Response } from 'express';
import { z } from 'zod';
import { GameError } from '../../service/errors';
import type { GameView } from '../../service/game/view';
import type { GameCommandType } from '../../service/game/commands';
import { namesOf } from '../../service/game/names';
import type { WriteAnswer, WriteOptions } from '../../service/game/writer';
import type { Services } from '../../service';
import { credentialOf, parse, problems, seatSecurity, type RestRoute } from './route';
import * as S from './schemas';

// The writes of a game's seats: POST /games/{id}/moves and the in-game actions (resign, draws,
// claims, abort). Each answers the whole game, or with `Prefer: return=minimal` its head and the move.

export const idParams = z.object({ id: S.GameId });

// Authorization is no header parameter: the operations' `security` says which tokens will do.
const writeHeaders = z.object({
  'if-match': z.string().optional().openapi({ description: 'The version the client expects, e.g. "3"' }),
  'idempotency-key': z
    .string()
    .optional()
    .openapi({ description: 'Retries with the same key act once (24 h)' }),
  prefer: z.string().optional().openapi({
    description:
      'return=minimal (RFC 7240): answer the head and the move (a GameStreamUpdate) instead of the whole game',
  }),
});

/** What a takeback does (docs/takeback.md). */
const TAKEBACK_RULE =
  "A takeback removes the asker's last move and every move after it (in mancala also the extra moves it " +
  'chained just before), one version on; the asker is to move again, its turn (clock, deadline) starting at ' +
  'the takeback, no time given back. Casual games only, unless created with settings.takeback false.';

/** Who acts for a seat: a seat token, or an API token of the account holding it. */
const SEAT_AUTH =
  'Needs the seat token of that seat, or an API token of the account holding the seat with the scope ' +
  'game:play (human accounts) or bot:play (bot accounts).';

const MINIMAL =
  'With `Prefer: return=minimal` the answer is `{"game": <GameHead>, "move": <Move or null>}` (a ' +
  'GameStreamUpdate, as game streams send after their first message: the new version without its moves, ' +
  'and the move this request played, null for the other actions), O(1) in the length of the game, with ' +
  '`Preference-Applied: return=minimal`; a retry with the same Idempotency-Key answers its first answer ' +
  'in the shape asked for now. Without it, the whole game (moves included).';

/** The answer of a write: the whole Game by default, a GameStreamUpdate with return=minimal. */
const WriteAnswerSchema = z
  .union([S.Game, S.GameStreamUpdate])
  .openapi(
    { description: 'The whole Game, or with Prefer: return=minimal its head and the move' },
    { unionPreferredType: 'oneOf' },
  );

/** The 200 of a write: either shape, its ETag, and Preference-Applied when return=minimal was applied. */
function written(description: string) {
  return {
    description: `${description}: the Game, or with Prefer: return=minimal a GameStreamUpdate`,
    headers: {
      ETag: { $ref: '#/components/headers/ETag' },
      'Preference-Applied': {
        description: '`return=minimal` when the answer is the head and the move',
        required: false,
        schema: { type: 'string' as const, enum: ['return=minimal'] },
      },
    },
    content: { 'application/json': { schema: WriteAnswerSchema } },
  };
}

/** True when the request's Prefer header (RFC 7240) asks for `return=minimal`. */
export function prefersMinimal(req: Request): boolean {
  const header = req.get('prefer');
  if (header === undefined) return false;
  // Preferences are comma-separated tokens, each `name[=value]` with `;`-parameters; a value may be quoted.
  for (const preference of header.split(',')) {
    const [name, value] = (preference.split(';')[0] ?? '').split('=').map((part: string) => part.trim());
    if (name?.toLowerCase() === 'return' && value?.replace(/^"|"$/g, '').toLowerCase() === 'minimal') {
      return true;
    }
  }
  return false;
}

/** Bearer token, If-Match and Idempotency-Key of a write request. */
function writeOptions(req: Request, bodyVersion?: number): WriteOptions {
  const credential = credentialOf(req);
  const ifMatch = req.headers['if-match'];
  let expectedVersion = bodyVersion;
  if (ifMatch !== undefined) {
    const match = /^(?:W\/)?"?(\d{1,12})"?$/.exec(ifMatch.trim());
    if (!match) throw new GameError('INVALID_INPUT', 'If-Match must be a game version, e.g. "3"');
    const fromHeader = Number(match[1]);
    if (bodyVersion !== undefined && bodyVersion !== fromHeader) {
      throw new GameError('INVALID_INPUT', 'If-Match and expectedVersion disagree');
    }
    expectedVersion = fromHeader;
  }
  const key = req.headers['idempotency-key'];
  return {
    credential,
    ...(expectedVersion !== undefined ? { expectedVersion } : {}),
    ...(typeof key === 'string' ? { idempotencyKey: key } : {}),
  };
}

export function sendGame(res: Response, game: GameView, status = 200): void {
  res.status(status).setHeader('ETag', `"${game.version}"`).json(game);
}

/**
 * A write's answer in the shape the request prefers (see MINIMAL). Writes are POSTs answered 200
 * with a body: what res.json would send (the app sets no JSON replacer, spaces or ETag), written
 * directly, without its checks for HEAD, freshness and 204/304.
 */
function sendAnswer(req: Request, res: Response, answer: WriteAnswer): void {
  const minimal = prefersMinimal(req);
  const body = JSON.stringify(minimal ? answer.slim : answer.game);
  res.statusCode = 200;
  res.setHeader('Vary', varyWith(res.getHeader('Vary'), 'Prefer'));
  res.setHeader('ETag', `"${answer.head.version}"`);
  if (minimal) res.setHeader('Preference-Applied', 'return=minimal');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** A Vary header with `field` added (as res.vary does), for the usual case of none set before. */
function varyWith(current: number | string | string[] | undefined, field: string): string {
  if (current === undefined || current === '') return field;
  const fields = (Array.isArray(current) ? current.join(', ') : String(current)).split(/\s*,\s*/);
  if (fields.includes('*') || fields.some((f) => f.toLowerCase() === field.toLowerCase())) {
    return fields.join(', ');
  }
  return [...fields, field].join(', ');
}

/** The write routes of games under /api/v1, in the order of the document (names: game/names.ts). */
export function gameWriteRoutes(services: Services): RestRoute[] {
  const writer = services.writer;
  const action = (type: Exclude<GameCommandType, 'move'>, summary: string, description = ''): RestRoute => {
    const { path, operationId } = namesOf(type);
    const command = { type } as const;
    return {
      spec: {
        method: 'post',
        path,
        operationId,
        summary,
        description: `${description}${description ? ' ' : ''}${SEAT_AUTH} ${MINIMAL}`,
        security: seatSecurity,
        request: {
          params: idParams,
          headers: writeHeaders,
          body: { content: { 'application/json': { schema: S.ActionBody } }, required: false },
        },
        responses: {
          200: written('The game after the action'),
          ...problems(400, 401, 403, 404, 409, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const body = parse(S.ActionBody, req.body, 'body');
        sendAnswer(req, res, await writer.apply(id, command, writeOptions(req, body.expectedVersion)));
      },
    };
  };
  const move = namesOf('move');

  return [
    {
      spec: {
        method: 'post',
        path: move.path,
        operationId: move.operationId,
        summary: 'Play a move',
        description:
          `The side to move plays. ${SEAT_AUTH} If-Match (or expectedVersion) guards against stale ` +
          `state; Idempotency-Key makes retries safe. ${MINIMAL}`,
        security: seatSecurity,
        request: {
          params: idParams,
          headers: writeHeaders,
          body: { content: { 'application/json': { schema: S.MoveBody } } },
        },
        responses: {
          200: written('The game after the move'),
          ...problems(400, 401, 403, 404, 409, 422, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const body = parse(S.MoveBody, req.body, 'body');
        const options = writeOptions(req, body.expectedVersion);
        sendAnswer(req, res, await writer.apply(id, { type: 'move', move: body.move }, options));
      },
    },
    action(
      'resign',
      'Resign (either player, at any time)',
      'Also on the opponent’s turn; the opponent wins with reason `resignation`.',
    ),
    action('draw.offer', "Offer a draw (accepts the opponent's offer)"),
    action('draw.accept', "Accept the opponent's draw offer"),
    action('draw.decline', "Decline the opponent's draw offer"),
    action(
      'claim.draw',
      'Claim a draw: an abandoned unlimited game',
      'Every draw rule of the hosted games ends the game by itself as soon as it applies. What is left ' +
        'to claim: in a game without a time control, the player waiting may end it as a draw (reason ' +
        '`abandoned`) once the opponent to move has not moved for the abandon period (ABANDON_CLAIM_DAYS, ' +
        'default 3 days) since its turn began; 409 CLAIM_TOO_EARLY before (`claimableAt`), 409 ' +
        'NO_DRAW_CLAIM otherwise (a time control, or one’s own turn).',
    ),
    action(
      'claim.victory',
      'Claim victory: an abandoned unlimited game',
      'In a game without a time control, the player waiting wins (reason `abandoned`) once the opponent ' +
        'to move has not moved for the abandon period (ABANDON_CLAIM_DAYS, default 3 days) since its ' +
        'turn began; 409 CLAIM_TOO_EARLY before (`claimableAt`), 409 NO_VICTORY_CLAIM in games with a ' +
        'time control (deadlines end them) or on one’s own turn.',
    ),
    action(
      'abort',
      'Abort the game (no result)',
      'Either seat, while not both sides have moved; afterwards 409 TOO_LATE_TO_ABORT (resign instead).',
    ),
    action(
      'takeback.offer',
      'Ask to take back your last move',
      `${TAKEBACK_RULE} Offering while the opponent's offer stands accepts it; against the built-in AI the offer is ` +
        'accepted at once. 409 TAKEBACK_NOT_ALLOWED (`reason`: rated, forbidden (settings.takeback false), nothing ' +
        '(no move of yours to take back), offered (your offer is pending)), GAME_OVER once the game is over.',
    ),
    action(
      'takeback.accept',
      "Accept the opponent's takeback offer",
      `${TAKEBACK_RULE} 409 NO_TAKEBACK_OFFER when the opponent has none pending (a move since cleared it).`,
    ),
    action(
      'takeback.decline',
      "Decline the opponent's takeback offer",
      '409 NO_TAKEBACK_OFFER when the opponent has none pending.',
    ),
  ];
}
