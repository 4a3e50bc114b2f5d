// A store may drop the `details` of the moves of finished games (captures, sowing traces: they
// follow from the moves). The API must answer the same for such a game: the service replays it to
// put them back. A finished game is copied through the store port without its moves' details, and
// every read of the copy must equal the same read of the original.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { StoredGame } from '../../src/store/store';
import { appHarness, chooser, gql, type Running, type StoreKind } from '../support/app';
import { readStream } from '../support/stream-reader';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** Plays a game of `kind` to its end in process; its id. */
async function finishedGame(run: Running, kind: string, seed: number): Promise<string> {
  const games = run.app.services.games;
  const created = await games.createGame({ kind });
  const tokens = created.seatTokens.map((s) => s.token);
  const choose = chooser(seed);
  let view = created.game;
  while (view.status !== 'finished') {
    view = await games.submitMove(view.id, choose(view.legalMoves), {
      credential: { token: tokens[view.toMove as number] as string },
    });
  }
  return view.id;
}

/** `value` with the copy's id written as the original's (the only difference allowed). */
const asOriginal = (value: unknown, copy: string, original: string): unknown =>
  JSON.parse(JSON.stringify(value).replaceAll(copy, original));

const DETAILS_QUERY = `query ($id: ID!) {
  game(id: $id) {
    id
    lastMove { ply details }
    moves { ply notation details detail { __typename } }
    page: moves(after: 2, limit: 3) { ply details }
  }
}`;

describe.each<StoreKind>(['memory', 'redis'])(
  'a finished game whose moves lost their details (%s)',
  (store) => {
    let run: Running;
    beforeAll(async () => {
      run = await harness.start(store);
    });

    it.each([
      ['kalah', 3],
      ['oware', 5],
      ['russian-draughts', 7],
    ])('%s: every read answers as for the game with its details', async (kind, seed) => {
      const original = await finishedGame(run, kind, seed);
      const stored = (await run.storage.games.get(original)) as StoredGame;
      // The memory store keeps every detail; the Redis store packs a finished game without them.
      expect(stored.moves.every((m) => m.details !== undefined)).toBe(store === 'memory');
      // The copy, written through the store port as a compacting store would keep it.
      const copy = randomBytes(9).toString('base64url');
      const compacted: StoredGame = {
        ...stored,
        id: copy,
        moves: stored.moves.map(({ details: _details, ...move }) => move),
      };
      await run.storage.games.create(compacted);
      expect((await run.storage.games.get(copy))?.moves.every((m) => m.details === undefined)).toBe(true);

      const same = async (path: (id: string) => string, accept = 'application/json') => {
        const [a, b] = await Promise.all(
          [original, copy].map((id) => request(run.url).get(path(id)).set('Accept', accept).expect(200)),
        );
        const body = (r: request.Response) => (accept === 'application/json' ? r.body : r.text);
        expect(asOriginal(body(b as request.Response), copy, original)).toEqual(body(a as request.Response));
        return body(a as request.Response);
      };
      const view = await same((id) => `/api/v1/games/${id}`);
      expect(view.moves.length).toBeGreaterThan(5);
      expect(view.moves.every((m: { details: unknown }) => m.details !== null)).toBe(true);
      await same((id) => `/api/v1/games/${id}/moves?limit=500`);
      await same((id) => `/api/v1/games/${id}/moves?after=3&limit=4`);
      await same((id) => `/api/v1/games/${id}/export`, 'text/plain');

      // The stream's first message (the whole game), and GraphQL's moves and lastMove.
      const [first, firstOfCopy] = await Promise.all(
        [original, copy].map(async (id) => {
          const stream = await readStream(`${run.url}/api/v1/games/${id}/stream`, {
            accept: 'application/x-ndjson',
          });
          try {
            return await stream.next();
          } finally {
            stream.close();
          }
        }),
      );
      expect(asOriginal(firstOfCopy, copy, original)).toEqual(first);
      const graphql = (id: string) => gql(run.url, DETAILS_QUERY, { id }).then((r) => r.body);
      const [a, b] = [await graphql(original), await graphql(copy)];
      expect(a.errors).toBeUndefined();
      expect(a.data?.game.moves.every((m: { detail: unknown }) => m.detail !== null)).toBe(true);
      expect(asOriginal(b, copy, original)).toEqual(a);
    });
  },
);

describe.each<StoreKind>(['memory', 'redis'])(
  'a game whose moves were stored before their details carried `family` (%s)',
  (store) => {
    let run: Running;
    beforeAll(async () => {
      run = await harness.start(store);
    });

    it.each([['kalah'], ['russian-draughts'], ['congo']])('%s: served with the family tag', async (kind) => {
      const games = run.app.services.games;
      const created = await games.createGame({ kind });
      const choose = chooser(11);
      let view = created.game;
      for (let i = 0; i < 4 && view.status === 'ongoing'; i++) {
        view = await games.submitMove(view.id, choose(view.legalMoves), {
          credential: { token: created.seatTokens[view.toMove as number]?.token as string },
        });
      }
      const stored = (await run.storage.games.get(view.id)) as StoredGame;
      const copy = randomBytes(9).toString('base64url');
      const untagged: StoredGame = {
        ...stored,
        id: copy,
        moves: stored.moves.map((move) => {
          const { family: _family, ...details } = move.details as { family: string };
          return { ...move, details } as unknown as StoredGame['moves'][number];
        }),
      };
      await run.storage.games.create(untagged);
      expect((await run.storage.games.get(copy))?.moves.some((m) => m.details && 'family' in m.details)).toBe(
        false,
      );

      const [a, b] = await Promise.all(
        [view.id, copy].map((id) => request(run.url).get(`/api/v1/games/${id}`).expect(200)),
      );
      expect(a?.body.moves.length).toBe(4);
      expect(a?.body.moves.every((m: { details: { family: string } }) => m.details.family)).toBe(true);
      expect(asOriginal(b?.body, copy, view.id)).toEqual(a?.body);
      const graphql = await gql(run.url, DETAILS_QUERY, { id: copy });
      expect(graphql.body.errors).toBeUndefined();
      expect(graphql.body.data?.game.moves.every((m: { detail: unknown }) => m.detail !== null)).toBe(true);
    });
  },
);
