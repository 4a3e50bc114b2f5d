import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpContext } from './context';
import { gameSummary } from './game-summary';
import { run, WRITE } from './results';

// The rematch of a finished game (docs/rematch.md): the same service calls as REST's
// POST /games/{id}/rematch and /rematch/decline.

export function registerRematchTools(server: McpServer, ctx: McpContext): void {
  const { services, credential, me } = ctx;
  server.registerTool(
    'rematch',
    {
      title: 'Rematch',
      description:
        'After a game ends: offer the opponent a rematch (same kind, options and time control, colours ' +
        'swapped). If the opponent has offered one, or plays as the built-in AI, the new game starts at once ' +
        'and is returned (status accepted); otherwise status offered, and the opponent decides. decline: true ' +
        'declines the opponent’s offer instead. Calling again after the start returns the same new game.',
      inputSchema: {
        gameId: z.string().describe('The finished game'),
        decline: z.boolean().optional().describe('Decline the opponent’s rematch offer instead'),
      },
      annotations: WRITE,
    },
    ({ gameId, decline }) =>
      run(async () => {
        const answer = decline
          ? await services.rematch.decline(credential, gameId)
          : await services.rematch.offer(credential, gameId);
        return {
          status: answer.status,
          game: answer.game ? gameSummary(answer.game, me) : null,
        };
      }),
  );
}
