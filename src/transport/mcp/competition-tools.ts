import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { LEADERBOARD_CATEGORIES, SPEEDS, TOURNAMENT_STATUSES } from '../../vocabulary';
import type { TournamentView } from '../../service/tournaments/views';
import type { McpContext } from './context';
import { READ, run, WRITE } from './results';

// The tools of the competitive layer: ratings, leaderboards and tournaments (the same service
// calls as REST's /accounts/{u}/ratings, /leaderboards/{kind}/{speed} and /tournaments).

const tournamentId = z.string().describe('The tournament id');
const limit = z.number().int().min(1).max(100).optional().describe('At most this many (default 20)');

/** A tournament as an agent reads it in a list: what, when, who and where it stands. */
function tournamentLine(t: TournamentView, me: string): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    kind: t.kind,
    options: t.options,
    timeControl: t.timeControl,
    format: t.format,
    rounds: t.rounds,
    rated: t.rated,
    status: t.status,
    round: t.round,
    players: t.players.length,
    maxPlayers: t.maxPlayers,
    startsAt: t.startsAt,
    joined: t.players.some((p) => p.account === me),
  };
}

export function registerCompetitionTools(server: McpServer, ctx: McpContext): void {
  const { services, credential, me } = ctx;

  server.registerTool(
    'get_ratings',
    {
      title: 'Read ratings',
      description:
        'The Glicko-2 ratings of an account (default: mine), one per kind and speed it has played rated ' +
        'games in: rating, rd, provisional, games.',
      inputSchema: { username: z.string().optional().describe('Default: my own account') },
      annotations: READ,
    },
    ({ username }) =>
      run(async () => {
        const name = username ?? (await services.accounts.me(credential)).id;
        return { ...(await services.ratings.ratings(name, credential)) };
      }),
  );

  server.registerTool(
    'get_leaderboard',
    {
      title: 'Read a leaderboard',
      description:
        'The best non-provisional ratings of a kind and speed, humans and bots apart (category), best first.',
      inputSchema: {
        kind: z.string().describe('A kind from list_kinds'),
        speed: z.enum(SPEEDS).describe('realtime or correspondence'),
        category: z.enum(LEADERBOARD_CATEGORIES).optional().describe('Default: human'),
        limit,
      },
      annotations: READ,
    },
    ({ kind, speed, category, limit: max }) =>
      run(async () => ({
        ...(await services.ratings.leaderboard(
          kind,
          speed,
          category,
          max === undefined ? {} : { limit: max },
          credential,
        )),
      })),
  );

  server.registerTool(
    'list_tournaments',
    {
      title: 'List tournaments',
      description:
        'Tournaments newest first: by status (open ones take entries: join_tournament), or mine only. ' +
        'Each line says whether I joined.',
      inputSchema: {
        status: z.enum(TOURNAMENT_STATUSES).optional().describe('Default: every status'),
        mine: z.boolean().optional().describe('Only the tournaments I joined or created'),
        limit,
      },
      annotations: READ,
    },
    ({ status, mine, limit: max }) =>
      run(async () => {
        const page = mine
          ? await services.tournaments.mine(credential, max ?? 20)
          : await services.tournaments.list(status, max ?? 20, undefined, credential);
        const items = mine && status ? page.items.filter((t) => t.status === status) : page.items;
        return { tournaments: items.map((t) => tournamentLine(t, me)) };
      }),
  );

  server.registerTool(
    'get_tournament',
    {
      title: 'Read a tournament',
      description:
        'One tournament: its settings, players, pairings by round (with the game ids: play them with get_game ' +
        'and play_move) and the standings now.',
      inputSchema: { tournamentId },
      annotations: READ,
    },
    ({ tournamentId: id }) =>
      run(async () => {
        const [tournament, standings] = await Promise.all([
          services.tournaments.get(id, credential),
          services.tournaments.standings(id, credential),
        ]);
        return { tournament: { ...tournament }, standings: { ...standings } };
      }),
  );

  server.registerTool(
    'join_tournament',
    {
      title: 'Join a tournament',
      description:
        'Enter an open tournament (again: no change). Its games start by themselves each round and show in ' +
        'list_my_games.',
      inputSchema: { tournamentId },
      annotations: WRITE,
    },
    ({ tournamentId: id }) =>
      run(async () => ({ tournament: tournamentLine(await services.tournaments.join(credential, id), me) })),
  );

  server.registerTool(
    'leave_tournament',
    {
      title: 'Leave a tournament',
      description:
        'Before the start: the entry is gone. After: a withdrawal (no further pairings; unplayed games are forfeited).',
      inputSchema: { tournamentId },
      annotations: { ...WRITE, destructiveHint: true },
    },
    ({ tournamentId: id }) =>
      run(async () => ({ tournament: tournamentLine(await services.tournaments.leave(credential, id), me) })),
  );
}
