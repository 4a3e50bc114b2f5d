import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { basename } from 'node:path';
import { z } from 'zod';
import type { ChallengeView } from '../../service/challenges/service';
import { GameError } from '../../service/errors';
import { DECLINE_REASONS, GAME_VISIBILITIES, kindIds, TIME_CONTROL_TYPES } from '../../vocabulary';
import { readRulesPage } from '../rest/rules';
import type { McpContext } from './context';
import { gameSummary } from './game-summary';
import { READ, run, WRITE } from './results';

// The tools before a game: what can be played, by which rules, and challenges.

const challengeId = z.string().describe('The challenge id');

const timeControl = z
  .object({
    type: z.enum(TIME_CONTROL_TYPES),
    initialSeconds: z.number().int().optional().describe('realtime: 10–10800'),
    incrementSeconds: z.number().int().optional().describe('realtime: 0–180, default 0'),
    daysPerMove: z.number().int().optional().describe('correspondence: 1–14'),
  })
  .describe('Default: unlimited');

/** A challenge as an agent reads it: who, what, and the game it became. */
function challengeLine(c: ChallengeView, me: string): Record<string, unknown> {
  return {
    id: c.id,
    status: c.status,
    direction: c.challenger === me ? 'sent' : 'received',
    challenger: c.challenger,
    destination: c.destination,
    players: c.players,
    kind: c.kind,
    options: c.options,
    timeControl: c.timeControl,
    position: c.initialPosition,
    starts: c.starts,
    accepted: c.accepted,
    declineReason: c.declineReason,
    gameId: c.gameId,
    expiresAt: c.expiresAt,
  };
}

export function registerChallengeTools(server: McpServer, ctx: McpContext): void {
  const { services, credential, me } = ctx;

  server.registerTool(
    'list_kinds',
    {
      title: 'List game kinds',
      description:
        `The hosted games (${kindIds().join(', ')}): seat names, options (JSON Schema) ` +
        'and defaults, how moves and positions are written. Read a kind’s full rules with get_rules.',
      annotations: READ,
    },
    () =>
      run(async () => ({
        kinds: services.games.describeKinds().map((k) => ({
          kind: k.kind,
          name: k.name,
          seatNames: k.seatNames,
          options: k.options,
          defaults: k.defaults,
          notation: k.notation,
        })),
      })),
  );

  server.registerTool(
    'get_rules',
    {
      title: 'Read the rules of a game',
      description:
        'The full rules page of a kind (markdown): rules, move notation, position strings, options, end reasons.',
      inputSchema: { kind: z.string().describe('A kind from list_kinds, e.g. kalah') },
      annotations: READ,
    },
    ({ kind }) =>
      run(async () => {
        const engine = services.games.engineFor(kind);
        const view = services.games.describeKinds().find((k) => k.kind === engine.kind);
        const page = view ? basename(view.rules.path) : `${engine.kind}.md`;
        const text = await readRulesPage(ctx.rulesDir, page);
        if (text === undefined) throw new GameError('NOT_FOUND', `No rules page for ${engine.kind}`);
        return { kind: engine.kind, rules: text };
      }),
  );

  server.registerTool(
    'list_challenges',
    {
      title: 'List my open challenges',
      description:
        'Open challenges I sent or received (direction). Accept a received one with accept_challenge.',
      annotations: READ,
    },
    () =>
      run(async () => ({
        challenges: (await services.challenges.listOpen(credential)).items.map((c) => challengeLine(c, me)),
      })),
  );

  server.registerTool(
    'create_challenge',
    {
      title: 'Challenge an account',
      description:
        'Challenge the account `to` (or, without `to`, post an open challenge anyone may accept) to a game of ' +
        '`kind`. The challenge becomes a game once accepted; its gameId is then in list_challenges / list_my_games.',
      inputSchema: {
        to: z.string().optional().describe('The username challenged; omit for an open challenge'),
        kind: z.string().describe('A kind from list_kinds'),
        options: z.record(z.string(), z.unknown()).optional().describe('The kind’s options (see list_kinds)'),
        timeControl: timeControl.optional(),
        position: z.string().optional().describe('Start from this position (the kind’s position notation)'),
        starts: z
          .enum(['challenger', 'destination', 'random'])
          .optional()
          .describe('Who moves first (default random)'),
        expiresInSeconds: z.number().int().optional().describe('10 s to 14 days, default 1 day'),
        visibility: z
          .enum(GAME_VISIBILITIES)
          .optional()
          .describe(
            'Who may read the game: public (default), unlisted (anyone with its id), private (its players)',
          ),
        idempotencyKey: z.string().optional().describe('Retrying with the same key creates one challenge'),
      },
      annotations: WRITE,
    },
    ({ idempotencyKey, ...input }) =>
      run(async () => {
        const created = await services.challenges.create(
          credential,
          input,
          idempotencyKey === undefined ? {} : { idempotencyKey },
        );
        return { challenge: challengeLine(created, me) };
      }),
  );

  server.registerTool(
    'accept_challenge',
    {
      title: 'Accept a challenge',
      description:
        'Accept a challenge (safe to retry). When it becomes a game, the answer holds the game with its ' +
        'legal moves and whose turn it is.',
      inputSchema: { challengeId },
      annotations: WRITE,
    },
    ({ challengeId: id }) =>
      run(async () => {
        const challenge = await services.challenges.accept(credential, id);
        const game = challenge.gameId
          ? await services.games.getGame(challenge.gameId, credential)
          : undefined;
        return { challenge: challengeLine(challenge, me), game: game ? gameSummary(game, me) : null };
      }),
  );

  server.registerTool(
    'decline_challenge',
    {
      title: 'Decline a challenge',
      description: 'Decline a challenge sent to me, with a reason (default generic). Safe to retry.',
      inputSchema: { challengeId, reason: z.enum(DECLINE_REASONS).optional() },
      annotations: WRITE,
    },
    ({ challengeId: id, reason }) =>
      run(async () => ({
        challenge: challengeLine(await services.challenges.decline(credential, id, reason), me),
      })),
  );

  server.registerTool(
    'cancel_challenge',
    {
      title: 'Cancel my challenge',
      description: 'Withdraw a challenge I sent that is still open. Safe to retry.',
      inputSchema: { challengeId },
      annotations: WRITE,
    },
    ({ challengeId: id }) =>
      run(async () => ({ challenge: challengeLine(await services.challenges.cancel(credential, id), me) })),
  );
}
