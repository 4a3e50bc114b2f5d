import { z } from 'zod';
import type { Services } from '../../service';
import * as T from './tournaments.schemas';
import {
  apiToken,
  credentialOf,
  idempotencyHeader,
  idempotencyKeyOf,
  json,
  parse,
  problems,
  PUBLIC,
  readerCredentialOf,
  type RestRoute,
} from './route';

const idParams = z.object({ id: T.TournamentId });
const WRITE = 'Needs an API token with the scope challenge:write (bots: bot:play).';
const text = (description: string) => ({ description, content: { 'text/plain': { schema: z.string() } } });

/** Tournaments under /api/v1: round robin and Swiss, their entries and standings. */
export function tournamentRoutes(services: Services): RestRoute[] {
  const tournaments = services.tournaments;
  const entry = (action: 'join' | 'leave', summary: string, description: string): RestRoute => ({
    spec: {
      method: 'post',
      path: `/tournaments/{id}/${action}`,
      operationId: `${action}Tournament`,
      tags: ['tournaments'],
      summary,
      description: `${description} ${WRITE}`,
      security: apiToken('challenge:write', 'bot:play'),
      request: { params: idParams },
      responses: {
        200: json(T.Tournament, 'The tournament after it'),
        ...problems(400, 401, 403, 404, 409, 503),
      },
    },
    handle: async (req, res) => {
      const { id } = parse(idParams, req.params, 'path');
      res.json(await tournaments[action](credentialOf(req), id));
    },
  });
  const standings = async (
    id: string,
    format: 'json' | 'text' | undefined,
    req: Parameters<RestRoute['handle']>[0],
    res: Parameters<RestRoute['handle']>[1],
  ) => {
    const reader = readerCredentialOf(req);
    if (format === 'text')
      res.type('text/plain; charset=utf-8').send(await tournaments.standingsText(id, reader));
    else res.json(await tournaments.standings(id, reader));
  };
  return [
    {
      spec: {
        method: 'post',
        path: '/tournaments',
        operationId: 'createTournament',
        tags: ['tournaments'],
        summary: 'Create a tournament',
        description:
          'A round robin (Berger tables) or a Swiss (score groups, no repeat pairings, byes) of one kind, options ' +
          'and time control. It starts at `startsAt` (cancelled with fewer than `minPlayers`) or once `maxPlayers` ' +
          `have joined; the server pairs each round and creates its games. The creator does not play unless it joins. ${WRITE}`,
        security: apiToken('challenge:write'),
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: T.CreateTournamentBody } } },
        },
        responses: {
          201: json(T.Tournament, 'The new tournament', 'Location'),
          ...problems(400, 401, 403, 409, 422, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(T.CreateTournamentBody, req.body, 'body');
        const t = await tournaments.create(credentialOf(req), body, idempotencyKeyOf(req));
        res.status(201).setHeader('Location', `/api/v1/tournaments/${t.id}`).json(t);
      },
    },
    {
      spec: {
        method: 'get',
        path: '/tournaments',
        operationId: 'listTournaments',
        tags: ['tournaments'],
        summary: 'List tournaments',
        description: 'Newest first, of one status (open, ongoing, finished, cancelled) or all.',
        security: PUBLIC,
        request: { query: T.TournamentListQuery },
        responses: { 200: json(T.TournamentList, 'A page of tournaments'), ...problems(400, 503) },
      },
      handle: async (req, res) => {
        const q = parse(T.TournamentListQuery, req.query, 'query');
        res.json(await tournaments.list(q.status, q.limit ?? 20, q.before, readerCredentialOf(req)));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/account/tournaments',
        operationId: 'myTournaments',
        tags: ['tournaments'],
        summary: 'My tournaments',
        description:
          'The tournaments the account joined or created, newest first. Any API token of the account.',
        security: apiToken(),
        request: { query: T.TournamentListQuery.omit({ status: true }) },
        responses: { 200: json(T.TournamentList, 'A page of tournaments'), ...problems(400, 401, 503) },
      },
      handle: async (req, res) => {
        const q = parse(T.TournamentListQuery.omit({ status: true }), req.query, 'query');
        res.json(await tournaments.mine(credentialOf(req), q.limit ?? 20, q.before));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/tournaments/{id}',
        operationId: 'getTournament',
        tags: ['tournaments'],
        summary: 'Read a tournament',
        description:
          'Its settings, players and the pairings of the rounds begun (with their points once decided).',
        security: PUBLIC,
        request: { params: idParams },
        responses: { 200: json(T.Tournament, 'The tournament'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        res.json(await tournaments.get(id, readerCredentialOf(req)));
      },
    },
    entry(
      'join',
      'Join a tournament',
      'While it is open; joining again changes nothing. 409 TOURNAMENT_FULL, TOURNAMENT_CLOSED.',
    ),
    entry(
      'leave',
      'Leave a tournament',
      'Before the start: the entry is gone. After: a withdrawal — no further pairings, the unplayed pairings forfeited ' +
        '(games in progress go on: resign them or let them time out). 409 NOT_IN_TOURNAMENT.',
    ),
    {
      spec: {
        method: 'get',
        path: '/tournaments/{id}/standings',
        operationId: 'tournamentStandings',
        tags: ['tournaments'],
        summary: 'Standings',
        description:
          'Computed from the pairings and the games’ results (finished games only). Tie-breaks: Sonneborn–Berger ' +
          '(round robin) or Buchholz then median Buchholz (Swiss), then direct encounter, then wins. ' +
          '`?format=text` (or /standings.txt): a plain-text table.',
        security: PUBLIC,
        request: { params: idParams, query: T.StandingsQuery },
        responses: {
          200: {
            description: 'The standings',
            content: { 'application/json': { schema: T.Standings }, 'text/plain': { schema: z.string() } },
          },
          ...problems(400, 404, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        await standings(id, parse(T.StandingsQuery, req.query, 'query').format, req, res);
      },
    },
    {
      spec: {
        method: 'get',
        path: '/tournaments/{id}/export',
        operationId: 'exportTournament',
        tags: ['tournaments'],
        summary: 'The tournament as plain text',
        description:
          'Its settings, every round’s pairings with their results and game ids (byes, forfeits and no-shows ' +
          'said as such), then the standings table.',
        security: PUBLIC,
        request: { params: idParams },
        responses: { 200: text('The tournament record'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        res.type('text/plain; charset=utf-8').send(await tournaments.exportText(id, readerCredentialOf(req)));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/tournaments/{id}/standings.txt',
        operationId: 'tournamentStandingsText',
        tags: ['tournaments'],
        summary: 'Standings as a plain-text table',
        description: 'The same as /standings?format=text: rank, player, score, tie-breaks, wins, games.',
        security: PUBLIC,
        request: { params: idParams },
        responses: { 200: text('The standings table'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        await standings(id, 'text', req, res);
      },
    },
  ];
}
