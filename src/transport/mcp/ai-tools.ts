import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { AI_LEVELS, TIME_CONTROL_TYPES } from '../../vocabulary';
import { MAX_ANALYSIS_DEPTH } from '../../service/bots/analysis';
import type { McpContext } from './context';
import { gameSummary } from './game-summary';
import { READ, run, WRITE } from './results';

// The tools of the built-in AI: a game against it (REST's POST /challenges/ai, the same service
// call: the game starts at once and is then played with get_game and play_move like any other),
// and the analysis of a position (POST /analysis).

const timeControl = z
  .object({
    type: z.enum(TIME_CONTROL_TYPES),
    initialSeconds: z.number().int().optional().describe('realtime: 10–10800'),
    incrementSeconds: z.number().int().optional().describe('realtime: 0–180, default 0'),
    daysPerMove: z.number().int().optional().describe('correspondence: 1–14'),
  })
  .describe('Default: unlimited');

const options = z.record(z.string(), z.unknown()).optional().describe('The kind’s options (see list_kinds)');

export function registerAiTools(server: McpServer, ctx: McpContext): void {
  const { services, credential, me } = ctx;

  server.registerTool(
    'play_ai',
    {
      title: 'Play the computer',
      description:
        'Start a game at once against the built-in AI (the account ai-level-<level>): level 1 plays almost at ' +
        `random, ${AI_LEVELS.length} as strongly as its time allows. The answer holds the game (yourTurn, ` +
        'legalMoves); play it with play_move and read the AI’s answers with get_game (the AI moves by itself ' +
        'within moments). AI games are casual (never rated). Pass an idempotencyKey so that a retried call ' +
        'starts one game.',
      inputSchema: {
        kind: z.string().describe('A kind from list_kinds'),
        level: z
          .number()
          .int()
          .describe(`1–${AI_LEVELS.length}: the AI’s strength (anything else: INVALID_INPUT)`),
        color: z
          .string()
          .optional()
          .describe('My seat: a seat name of the kind (south, white…), "0", "1" or "random" (default)'),
        options,
        timeControl: timeControl.optional(),
        position: z.string().optional().describe('Start from this position (the kind’s position notation)'),
        idempotencyKey: z.string().optional().describe('Retrying with the same key starts one game'),
      },
      annotations: WRITE,
    },
    ({ idempotencyKey, ...input }) =>
      run(async () => {
        const game = await services.ai.challenge(
          credential,
          input,
          idempotencyKey === undefined ? {} : { idempotencyKey },
        );
        return { game: gameSummary(game, me) };
      }),
  );

  server.registerTool(
    'analyze',
    {
      title: 'Analyse a position',
      description:
        'The built-in AI’s best move, principal variation (pv) and score (from the side to move’s point of ' +
        'view, in hundredths of a seed / man / pawn) for a game’s current position (gameId), a position of a ' +
        'kind (kind + position), or the start (kind alone); `solved` when the search proved the result. ' +
        'Bounded by depth and/or timeMs (default 1000 ms); analyses per minute are limited (RATE_LIMITED).',
      inputSchema: {
        gameId: z.string().optional().describe('Analyse the current position of this game'),
        kind: z.string().optional().describe('Required without gameId'),
        options,
        position: z.string().optional().describe('A position in the kind’s notation; default: the start'),
        depth: z.number().int().optional().describe(`Search depth, 1–${MAX_ANALYSIS_DEPTH}`),
        timeMs: z
          .number()
          .int()
          .optional()
          .describe('Search time in ms (at most the server’s AI_ANALYSIS_MAX_MS)'),
      },
      annotations: READ,
    },
    (input) => run(async () => ({ ...(await services.analysis.analyze(credential, input)) })),
  );
}
