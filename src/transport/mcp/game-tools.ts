import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { GameError } from '../../service/errors';
import type { GameView } from '../../service/game/view';
import { MY_GAMES_FILTERS } from '../../vocabulary';
import type { GameCommandType } from '../../service/game/commands';
import { namesOf } from '../../service/game/names';
import type { WriteOptions } from '../../service/game/writer';
import type { McpContext } from './context';
import { gameLine, gameSummary } from './game-summary';
import { READ, run, WRITE } from './results';

// The tools of a game: my games, one game with its legal moves, moves, resign and draws. Every
// write goes through the same service call as REST's, with its idempotency key and expected version.

const gameId = z.string().describe('The game id');
const expectedVersion = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe('The game’s `version` as last read: refused with VERSION_CONFLICT if the game has moved on');
const idempotencyKey = z
  .string()
  .optional()
  .describe(
    'A fresh key per action (1–128 of A-Z a-z 0-9 . _ : -); calling again with the same key answers the first ' +
      'answer and acts once',
  );

/** Codes after which an agent wants the game as it is now: what it may play, and whose turn it is. */
const EXPLAINED = new Set([
  'ILLEGAL_MOVE',
  'AMBIGUOUS_MOVE',
  'NOT_YOUR_TURN',
  'VERSION_CONFLICT',
  'GAME_OVER',
  'TIMEOUT',
]);

/**
 * The write options of a tool call. Without a key, a call that names the version it expects gets a
 * key derived from that version and the action: the same call made twice (a retry) then acts once
 * and answers the first answer, since a game's version names one position.
 */
function writeOptions(
  ctx: McpContext,
  action: string,
  input: { expectedVersion?: number | undefined; idempotencyKey?: string | undefined },
): WriteOptions {
  const derived =
    input.idempotencyKey === undefined && input.expectedVersion !== undefined
      ? `mcp.v${input.expectedVersion}.${action.replace(/[^A-Za-z0-9._:-]/g, '_')}`.slice(0, 128)
      : input.idempotencyKey;
  return {
    credential: ctx.credential,
    ...(input.expectedVersion === undefined ? {} : { expectedVersion: input.expectedVersion }),
    ...(derived === undefined ? {} : { idempotencyKey: derived }),
  };
}

export function registerGameTools(server: McpServer, ctx: McpContext): void {
  const { services, credential, me } = ctx;
  const now = async (id: string) => {
    const game = await services.games.getGame(id, credential);
    const s = gameSummary(game, me);
    return { legalMoves: s.legalMoves, toMove: s.toMove, yourTurn: s.yourTurn, version: s.version };
  };
  const explain = (id: string) => async (error: GameError) => (EXPLAINED.has(error.code) ? now(id) : {});
  const summary = (game: GameView) => ({ game: gameSummary(game, me) });

  server.registerTool(
    'list_my_games',
    {
      title: 'List my games',
      description:
        'My games. Default (active): the ongoing games where it is my turn first (earliest deadline first), then ' +
        'the other ongoing ones. Other filters: my-turn, ongoing, finished, all (newest first).',
      inputSchema: {
        // active: MCP's own default; the others are the API's filters of an account's games.
        filter: z.enum(['active', ...MY_GAMES_FILTERS]).optional(),
        kind: z.string().optional(),
        limit: z.number().int().min(1).max(100).optional().describe('At most this many games (default 20)'),
      },
      annotations: READ,
    },
    ({ filter = 'active', kind, limit = 20 }) =>
      run(async () => {
        const list = (f: string) =>
          services.lists.myGames(credential, { filter: f, limit, ...(kind === undefined ? {} : { kind }) });
        let games: GameView[];
        if (filter === 'active') {
          const [turn, ongoing] = await Promise.all([list('my-turn'), list('ongoing')]);
          const seen = new Set(turn.items.map((g) => g.id));
          games = [...turn.items, ...ongoing.items.filter((g) => !seen.has(g.id))].slice(0, limit);
        } else {
          games = (await list(filter)).items;
        }
        return { games: games.map((g) => gameLine(g, me)) };
      }),
  );

  server.registerTool(
    'get_game',
    {
      title: 'Read a game',
      description:
        'A game with whose turn it is (yourTurn), its legal moves in notation, the position and board, the ' +
        'clock and deadline, a pending draw offer, the last moves (allMoves: every move) and the result.',
      inputSchema: { gameId, allMoves: z.boolean().optional() },
      annotations: READ,
    },
    ({ gameId: id, allMoves }) =>
      run(async () => ({
        game: gameSummary(await services.games.getGame(id, credential), me, allMoves ?? false),
      })),
  );

  server.registerTool(
    namesOf('move').tool as string,
    {
      title: 'Play a move',
      description:
        'Play one of the legal moves (notation as in get_game’s legalMoves). An illegal move is refused with ' +
        'the legal moves, so you can choose again. Pass expectedVersion (the game’s version) or an ' +
        'idempotencyKey so that a retried call plays the move once.',
      inputSchema: {
        gameId,
        move: z.string().describe('The move, e.g. "3" (mancala) or "c3-d4"'),
        expectedVersion,
        idempotencyKey,
      },
      annotations: WRITE,
    },
    ({ gameId: id, move, ...write }) =>
      run(
        async () =>
          summary(
            (
              await services.writer.apply(
                id,
                { type: 'move', move },
                writeOptions(ctx, `move:${move}`, write),
              )
            ).game,
          ),
        explain(id),
      ),
  );

  const action = (
    type: Exclude<GameCommandType, 'move'>,
    title: string,
    description: string,
    destructive = false,
  ) => {
    // The tool's name is also in the idempotency keys derived from expectedVersion (writeOptions).
    const name = namesOf(type).tool as string;
    const command = { type } as const;
    server.registerTool(
      name,
      {
        title,
        description,
        inputSchema: { gameId, expectedVersion, idempotencyKey },
        annotations: { ...WRITE, destructiveHint: destructive },
      },
      ({ gameId: id, ...write }) =>
        run(
          async () =>
            summary((await services.writer.apply(id, command, writeOptions(ctx, name, write))).game),
          explain(id),
        ),
    );
  };

  action(
    'resign',
    'Resign',
    'Give up the game (at any time, also on the opponent’s turn): the opponent wins.',
    true,
  );
  action(
    'draw.offer',
    'Offer a draw',
    'Offer the opponent a draw (if the opponent has offered one, this accepts it).',
  );
  action('draw.accept', 'Accept a draw', 'Accept the opponent’s pending draw offer: the game is drawn.');
  action('draw.decline', 'Decline a draw', 'Decline the opponent’s pending draw offer.');
  action(
    'takeback.offer',
    'Ask to take back your last move',
    'Ask the opponent to take back your last move and every move after it (casual games; the built-in AI ' +
      'accepts at once). If the opponent has asked already, this accepts theirs.',
  );
  action(
    'takeback.accept',
    'Accept a takeback',
    'Accept the opponent’s pending takeback offer: their last move and every move after it are taken back.',
  );
  action('takeback.decline', 'Decline a takeback', 'Decline the opponent’s pending takeback offer.');
}
