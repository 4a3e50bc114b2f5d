import type { Response } from 'express';
import type { Services } from '../../service';
import { VACATION_DAYS_PER_YEAR } from '../../service/time/clocks';
import * as C from './clocks.schemas';
import { apiToken, credentialOf, json, parse, problems, type RestRoute } from './route';
import * as S from './schemas';
import { holdStreamSlot, type OpenStreams } from './stream';

const NDJSON = 'application/x-ndjson';

const VACATION_RULE =
  `An account has ${VACATION_DAYS_PER_YEAR} vacation days per calendar year (UTC), counted in the year the ` +
  'vacation starts, one vacation at a time. While it lasts, the clocks of its correspondence games stand ' +
  'still whenever it is to move: their deadlines move later by the time spent on vacation during the turn ' +
  '(realtime games are not affected), and the games show `seats[].vacationUntil`.';

/** Writes one chunk, waiting while the socket's buffer is full; false once the client is gone. */
function writeChunk(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', drained);
      res.off('close', closed);
      resolve(ok);
    };
    const drained = () => done(true);
    const closed = () => done(false);
    res.on('drain', drained);
    res.on('close', closed);
  });
}

/** An account's own games (lists and export) and its vacations, under /api/v1/account. */
export function clockRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  const clocks = services.clocks;
  return [
    {
      spec: {
        method: 'get',
        path: '/account/games',
        operationId: 'listMyGames',
        tags: ['accounts'],
        summary: "The account's games: my turn, ongoing, finished",
        description:
          'Needs an API token with the scope game:read. `my-turn` lists the ongoing games where the account is ' +
          'to move, earliest deadline first (games without a deadline last, longest waiting first); the other ' +
          'filters list newest first. Cursors are keyset positions: a game that changes between two pages ' +
          'never makes another one be skipped or repeated (the game that changed may move in or out of the list).',
        security: apiToken('game:read'),
        request: { query: C.MyGamesQuery },
        responses: { 200: json(S.GamePage, 'A page of games'), ...problems(400, 401, 403, 503) },
      },
      handle: async (req, res) => {
        const query = parse(C.MyGamesQuery, req.query, 'query');
        res.json(await services.lists.myGames(credentialOf(req), query));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/account/games/export',
        operationId: 'exportMyGames',
        tags: ['accounts'],
        summary: "Export the account's games (NDJSON)",
        description:
          'Every game of the account, newest first, one Game document per line (the same as GET ' +
          '/games/{id} returns), optionally of one kind or status. Streamed as it is read from the store, a ' +
          'page at a time. Needs an API token with the scope game:read; refusals come as problems before ' +
          'the stream. A response cut short (store failure, shutdown) ends without its final chunk.',
        security: apiToken('game:read'),
        request: { query: C.ExportQuery },
        responses: {
          200: {
            description: 'One Game per line',
            content: {
              [NDJSON]: { schema: { $ref: '#/components/schemas/Game' } },
            },
          },
          ...problems(400, 401, 403, 503),
        },
      },
      handle: async (req, res) => {
        const query = parse(C.ExportQuery, req.query, 'query');
        const credential = credentialOf(req);
        await holdStreamSlot(services.streamSlots, req, res);
        // Revoking the token, or its expiry, cuts the export short too (registered before the token is checked).
        const token = services.tokenStreams.watch(credential);
        let games;
        try {
          games = await services.lists.exportMyGames(credential, query);
        } catch (error) {
          token.release();
          throw error;
        }
        res.writeHead(200, {
          'Content-Type': `${NDJSON}; charset=utf-8`,
          'Cache-Control': 'no-store',
          'X-Accel-Buffering': 'no',
        });
        // Shutdown cuts an export short (the client sees a truncated response and retries).
        const shutdown = () => res.destroy();
        streams.add(shutdown);
        token.onEnd(shutdown);
        try {
          for await (const game of games) {
            if (!(await writeChunk(res, `${JSON.stringify(game)}\n`))) return;
          }
          res.end();
        } catch {
          // Headers are out: the only way left to say "incomplete" is to end without the last chunk.
          res.destroy();
        } finally {
          streams.delete(shutdown);
          token.release();
        }
      },
    },
    {
      spec: {
        method: 'get',
        path: '/account/vacation',
        operationId: 'getVacation',
        tags: ['accounts'],
        summary: "The account's vacation days",
        description: `${VACATION_RULE} Needs an API token with the scope game:read.`,
        security: apiToken('game:read'),
        responses: {
          200: json(C.Vacation, 'The allowance and the vacation in progress'),
          ...problems(401, 403, 503),
        },
      },
      handle: async (req, res) => {
        res.json(await clocks.vacation(credentialOf(req)));
      },
    },
    {
      spec: {
        method: 'post',
        path: '/account/vacation',
        operationId: 'startVacation',
        tags: ['accounts'],
        summary: 'Start a vacation',
        description:
          `Starts now and lasts \`days\` whole days (24 h each). ${VACATION_RULE} ` +
          '409 VACATION_ACTIVE while one lasts; 409 VACATION_ALLOWANCE_EXCEEDED beyond the days left this year ' +
          '(`remainingDays`). Needs an API token with the scope game:play (humans) or bot:play (bots).',
        security: apiToken('game:play', 'bot:play'),
        request: { body: { content: { 'application/json': { schema: C.VacationBody } } } },
        responses: { 200: json(C.Vacation, 'The vacation started'), ...problems(400, 401, 403, 409, 503) },
      },
      handle: async (req, res) => {
        const { days } = parse(C.VacationBody, req.body, 'body');
        res.json(await clocks.startVacation(credentialOf(req), days));
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/account/vacation',
        operationId: 'endVacation',
        tags: ['accounts'],
        summary: 'End the vacation now',
        description:
          'Ends the vacation in progress now and gives back the whole days not yet begun; the clocks run again ' +
          'from now. Without a vacation in progress, changes nothing. Needs an API token with the scope ' +
          'game:play (humans) or bot:play (bots).',
        security: apiToken('game:play', 'bot:play'),
        responses: { 200: json(C.Vacation, 'The allowance after'), ...problems(401, 403, 503) },
      },
      handle: async (req, res) => {
        res.json(await clocks.endVacation(credentialOf(req)));
      },
    },
  ];
}
