// One contract for every Storage implementation (memory and Redis run it alike).
import {
  FEED_MAX_EVENTS,
  FEED_RETENTION_MS,
  accountEffectsOf,
  clockIndexOf,
  featuredScore,
  type FeedEvent,
  type GameChange,
  type FeedEventType,
  type Notice,
  type Storage,
  type StoredAccount,
  type StoredChallenge,
  type StoredGame,
  type StoredSeek,
  type StoredToken,
  type NewDeliveryAttempt,
  type StoredWebhook,
  type WebhookClaim,
  type WebhookRef,
  type StoredVacation,
  type TurnCursor,
} from '../../src/store/store';
import { shardOf } from '../../src/store/redis/keys';
import { describeAppFeedContract } from './app-feed-contract';
import { describeAppContract } from './app-contract';
import { describeErasureContract } from './erasure-contract';
import { describeBlockContract } from './block-contract';
import { describeChatContract } from './chat-contract';
import { describeLobbyContract } from './lobby-contract';
import { describeBulkContract } from './bulk-contract';
import { describeKindContract } from './kind-contract';
import { describeTournamentContract } from './tournament-contract';
import { describeRatingContract } from './ratings-contract';
import { updateGame } from '../support/update-game';

let counter = 0;
let unique = 0;

/** A fresh lower-case id (accounts, challenges, seeks, pools) that no other test uses. */
export function uid(label: string): string {
  unique++;
  return `${label}${unique}x${Math.random().toString(36).slice(2, 8)}`;
}

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** A minimal, valid stored game document with a fresh id. */
export function sampleGame(overrides: Partial<StoredGame> = {}): StoredGame {
  counter++;
  const now = new Date().toISOString();
  return {
    id: `test${String(counter).padStart(8, '0')}`,
    kind: 'kalah',
    rulesVersion: '1',
    options: { seeds: 4 },
    first: 0,
    seats: [
      { seat: 0, name: 'south', account: null },
      { seat: 1, name: 'north', account: null },
    ],
    seatTokenHashes: ['a', 'b'],
    status: 'ongoing',
    outcome: null,
    ply: 0,
    version: 0,
    toMove: 0,
    position: '4,4,4,4,4,4/0/4,4,4,4,4,4/0 S',
    legalMoves: ['1', '2', '3', '4', '5', '6'],
    moves: [],
    drawOffer: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/** The game after one more (fake) move: version and ply up by one. */
export function advanced(game: StoredGame, notation = '3'): StoredGame {
  return {
    ...game,
    version: game.version + 1,
    ply: game.ply + 1,
    moves: [...game.moves, { ply: game.ply + 1, notation, seat: 0, at: new Date().toISOString() }],
  };
}

/** Subscribes now; `updates` resolves with the first `count` messages (or rejects after `ms`). */
async function gather<T>(
  subscribe: (listener: (message: T) => void) => Promise<() => Promise<void>>,
  count: number,
  ms = 3000,
): Promise<{ updates: Promise<T[]> }> {
  const received: T[] = [];
  let done: (messages: T[]) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const updates = new Promise<T[]>((resolve, reject) => {
    done = resolve;
    fail = reject;
  });
  const timer = setTimeout(() => fail(new Error(`got ${received.length} of ${count} messages`)), ms);
  const off = await subscribe((message) => {
    received.push(message);
    if (received.length === count) {
      clearTimeout(timer);
      void off();
      done(received);
    }
  });
  return { updates };
}

/** Subscribes now; `updates` resolves with the first `count` updates of the game. */
export function collect(storage: Storage, gameId: string, count: number, ms = 3000) {
  return gather<GameChange>((listener) => storage.events.subscribe(gameId, listener), count, ms);
}

/** Subscribes now; `updates` resolves with the first `count` events of the account's feed. */
export function collectFeed(storage: Storage, account: string, count: number, ms = 3000) {
  return gather<FeedEvent>((listener) => storage.feed.subscribe(account, listener), count, ms);
}

/** A game whose seats are bound to these accounts. */
export function gameOf(
  accounts: [string | null, string | null],
  overrides: Partial<StoredGame> = {},
): StoredGame {
  const game = sampleGame(overrides);
  return {
    ...game,
    seats: [
      { seat: 0, name: accounts[0] ?? 'south', account: accounts[0] },
      { seat: 1, name: accounts[1] ?? 'north', account: accounts[1] },
    ],
  };
}

export function sampleAccount(id: string, overrides: Partial<StoredAccount> = {}): StoredAccount {
  return {
    id,
    username: id.toUpperCase(),
    kind: 'human',
    bot: null,
    createdAt: iso(Date.now()),
    ...overrides,
  };
}

/** A token of `account` created `n` seconds after a fixed instant. */
export function sampleToken(account: string, n: number, overrides: Partial<StoredToken> = {}): StoredToken {
  return {
    id: uid('tok'),
    account,
    hash: uid('hash'),
    scopes: ['game:read', 'game:play'],
    label: `token ${n}`,
    createdAt: iso(Date.parse('2026-01-01T00:00:00.000Z') + n * SECOND),
    revokedAt: null,
    ...overrides,
  };
}

/** An open direct challenge, created now and expiring in a day. */
export function sampleChallenge(
  challenger: string,
  destination: string | null,
  overrides: Partial<StoredChallenge> = {},
): StoredChallenge {
  const now = Date.now();
  return {
    id: uid('ch'),
    version: 0,
    status: 'open',
    kind: 'kalah',
    options: { seeds: 4 },
    timeControl: { type: 'unlimited' },
    challenger,
    destination,
    players: null,
    starts: 'challenger',
    accepted: [],
    declineReason: null,
    closedBy: null,
    gameId: null,
    createdAt: iso(now),
    updatedAt: iso(now),
    expiresAt: iso(now + DAY),
    ...overrides,
  };
}

/** A seek in `pool`, created now and expiring in ten minutes. */
export function sampleSeek(account: string, pool: string, overrides: Partial<StoredSeek> = {}): StoredSeek {
  const now = Date.now();
  return {
    id: uid('seek'),
    account,
    kind: 'kalah',
    options: { seeds: 4 },
    timeControl: { type: 'realtime', initialSeconds: 300, incrementSeconds: 2 },
    pool,
    createdAt: iso(now),
    expiresAt: iso(now + 10 * 60 * SECOND),
    ...overrides,
  };
}

export function notice(
  to: readonly string[],
  type: FeedEventType = 'game.moved',
  data: Record<string, unknown> = {},
  at = iso(Date.now()),
): Notice {
  return { to, type, at, data };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

export function describeStoreContract(name: string, open: () => Promise<Storage>): void {
  describe(`${name} store contract`, () => {
    let storage: Storage;
    beforeAll(async () => {
      storage = await open();
    });
    afterAll(async () => {
      await storage.games.close();
      await storage.events.close();
    });

    describeBulkContract(() => storage);
    describeKindContract(() => storage);
    describeAppFeedContract(() => storage);
    describeLobbyContract(() => storage);

    it('answers ping', async () => {
      await expect(storage.games.ping()).resolves.toBeUndefined();
    });

    it('stores a new game and reads it back unchanged', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      expect(await storage.games.get(game.id)).toEqual(game);
    });

    it('writes a finished game again without a move (its rematch record): moves, listing and fields kept', async () => {
      const [a, b] = [uid('a'), uid('b')];
      const game = sampleGame({
        seats: [
          { seat: 0, name: 'south', account: a },
          { seat: 1, name: 'north', account: b },
        ],
        seatTokenHashes: ['', ''],
      });
      await storage.games.create(game);
      const moved = advanced(game);
      expect(await updateGame(storage.games, moved, 0)).toEqual({ status: 'updated' });
      const over: StoredGame = {
        ...moved,
        version: 2,
        status: 'finished',
        toMove: null,
        legalMoves: [],
        outcome: { winner: 0, reason: 'resignation' },
      };
      expect(await updateGame(storage.games, over, 1)).toEqual({ status: 'updated' });
      const offered: StoredGame = {
        ...over,
        version: 3,
        rematch: { offeredBy: 1, declinedBy: null, game: null },
      };
      expect(await updateGame(storage.games, offered, 2)).toEqual({ status: 'updated' });
      // A stale write of the record loses; the stored one stands.
      const stale: StoredGame = {
        ...over,
        version: 3,
        rematch: { offeredBy: 0, declinedBy: null, game: null },
      };
      expect(await updateGame(storage.games, stale, 2)).toEqual({ status: 'conflict', currentVersion: 3 });
      const read = await storage.games.get(game.id);
      expect(read?.rematch).toEqual({ offeredBy: 1, declinedBy: null, game: null });
      expect([read?.version, read?.status, read?.moves.map((m) => m.notation)]).toEqual([
        3,
        'finished',
        ['3'],
      ]);
      expect(
        (await storage.games.list({ account: b, status: 'finished' }, 10)).items.map((g) => g.id),
      ).toEqual([game.id]);
      // The rematch: of two creates of one id at once, one stores it, the other is refused.
      const rematch = sampleGame({
        rematchOf: game.id,
        seats: [...game.seats].reverse() as StoredGame['seats'],
      });
      const results = await Promise.allSettled([
        storage.games.create(rematch),
        storage.games.create(rematch),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(await storage.games.get(rematch.id)).toEqual(rematch);
    });

    it('keeps the initial position of a game from a position, through create, update and a challenge', async () => {
      const initialPosition = 'W:WKa1,Kc1:BKf8,Kh8:D28,0,0';
      const game = sampleGame({ kind: 'russian-draughts', initialPosition, position: initialPosition });
      await storage.games.create(game);
      expect(await storage.games.get(game.id)).toEqual(game);
      const next = advanced(game, 'c1-d2');
      expect(await updateGame(storage.games, next, 0)).toEqual({ status: 'updated' });
      expect((await storage.games.get(game.id))?.initialPosition).toBe(initialPosition);
      const [a, b] = [uid('a'), uid('b')];
      const challenge = sampleChallenge(a, b, { initialPosition });
      await storage.challenges.createChallenge(challenge, []);
      expect(await storage.challenges.getChallenge(challenge.id)).toEqual(challenge);
      const started = sampleGame({
        id: challenge.id,
        kind: 'russian-draughts',
        initialPosition,
        position: initialPosition,
      });
      const accepted: StoredChallenge = { ...challenge, version: 1, status: 'accepted', gameId: started.id };
      expect(await storage.challenges.updateChallenge(accepted, 0, { notices: [], game: started })).toBe(
        'updated',
      );
      expect(await storage.games.get(started.id)).toEqual(started);
      const seek = sampleSeek(a, `${uid('pool')}|position:${initialPosition}`, { initialPosition });
      expect(await storage.seeks.matchOrAdd(seek, seek.createdAt)).toBeUndefined();
      expect(await storage.seeks.getSeek(seek.id)).toEqual(seek);
      expect(await storage.seeks.matchOrAdd(sampleSeek(b, seek.pool), seek.createdAt)).toEqual(seek);
    });

    it('refuses to create a game whose id exists', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      await expect(storage.games.create({ ...game, ply: 9 })).rejects.toThrow();
      expect((await storage.games.get(game.id))?.ply).toBe(0);
    });

    it('reads an unknown id as undefined', async () => {
      expect(await storage.games.get('nosuchgame000')).toBeUndefined();
    });

    it('reads several games without their moves, in the order asked, undefined for unknown ids', async () => {
      const [one, two] = [sampleGame(), sampleGame()];
      await storage.games.create(one);
      await storage.games.create(two);
      const { moves: _one, ...oneHead } = one;
      const { moves: _two, ...twoHead } = two;
      expect(await storage.games.heads([two.id, 'nosuchgame000', one.id])).toEqual([
        twoHead,
        undefined,
        oneHead,
      ]);
      expect(await storage.games.heads([])).toEqual([]);
    });

    it('updates at the expected version and refuses a stale one with the current version', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      const next = advanced(game);
      expect(await updateGame(storage.games, next, 0)).toEqual({ status: 'updated' });
      expect(await storage.games.get(game.id)).toEqual(next);
      const stale = await updateGame(storage.games, advanced(game, '5'), 0);
      expect(stale).toEqual({ status: 'conflict', currentVersion: 1 });
      expect(await storage.games.get(game.id)).toEqual(next);
    });

    it('reports an update of a missing game', async () => {
      expect(await updateGame(storage.games, advanced(sampleGame()), 0)).toEqual({ status: 'missing' });
    });

    it('replays the first answer for a repeated idempotency key and writes nothing', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      const first = advanced(game);
      const key = { key: 'k-1', fingerprint: 'move:3' };
      expect(await updateGame(storage.games, first, 0, key)).toEqual({ status: 'updated' });
      const again = await updateGame(storage.games, advanced(first), 1, key);
      expect(again).toEqual({ status: 'replayed', record: { fingerprint: 'move:3', response: first } });
      expect((await storage.games.get(game.id))?.version).toBe(1);
      expect(await storage.games.idempotencyRecord(game.id, 'k-1')).toEqual({
        fingerprint: 'move:3',
        response: first,
      });
      expect(await storage.games.idempotencyRecord(game.id, 'other')).toBeUndefined();
    });

    it('lets exactly one of 50 concurrent writers at one version win', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => updateGame(storage.games, advanced(game, String(i)), 0)),
      );
      expect(results.filter((r) => r.status === 'updated')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'conflict')).toHaveLength(49);
      const stored = await storage.games.get(game.id);
      expect(stored?.moves).toHaveLength(1);
    });

    it('publishes each update to subscribers in order, and stops after unsubscribe', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      const { updates } = await collect(storage, game.id, 3);
      let current = game;
      for (let i = 0; i < 3; i++) {
        const next = advanced(current, String(i + 1));
        expect(await updateGame(storage.games, next, current.version)).toEqual({ status: 'updated' });
        current = next;
      }
      const changes = await updates;
      expect(changes.map((c) => c.game.version)).toEqual([1, 2, 3]);
      // Each change carries the head and the one move it added, never the move list.
      expect(changes.map((c) => c.move?.notation)).toEqual(['1', '2', '3']);
      for (const c of changes) expect(c.game).not.toHaveProperty('moves');
      const late: GameChange[] = [];
      const off = await storage.events.subscribe(game.id, (g) => late.push(g));
      await off();
      await updateGame(storage.games, advanced(current), current.version);
      await new Promise((r) => setTimeout(r, 50));
      expect(late).toEqual([]);
    });

    it('keeps the moves beside the head: pages of moves, changes without a move, replays as they were', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      let current = game;
      for (let i = 0; i < 5; i++) {
        const next = advanced(current, String(i + 1));
        expect(
          await updateGame(storage.games, next, current.version, { key: `k${i}`, fingerprint: `f${i}` }),
        ).toEqual({
          status: 'updated',
        });
        current = next;
      }
      await new Promise((resolve) => setTimeout(resolve, 20)); // the updates above reach nobody
      const { updates } = await collect(storage, game.id, 1);
      // A version no move made (a draw offer): the change carries no move, the list stays.
      const offered = { ...current, version: current.version + 1, drawOffer: 0 as const };
      expect(await updateGame(storage.games, offered, current.version)).toEqual({ status: 'updated' });
      const [change] = await updates;
      expect(change?.move).toBeNull();
      expect(change?.game.drawOffer).toBe(0);
      expect((await storage.games.get(game.id))?.moves.map((m) => m.notation)).toEqual([
        '1',
        '2',
        '3',
        '4',
        '5',
      ]);
      const first = await storage.games.moves(game.id, 0, 2);
      expect(first?.items.map((m) => m.notation)).toEqual(['1', '2']);
      expect(first?.next).toBe(2);
      const last = await storage.games.moves(game.id, 4, 10);
      expect(last?.items.map((m) => m.notation)).toEqual(['5']);
      expect(last?.next).toBeNull();
      expect(await storage.games.moves('no-such-game', 0, 10)).toBeUndefined();
      // The answer remembered for an idempotency key is the game as it was then (3 moves), not as it is now.
      const replayed = await updateGame(storage.games, advanced(offered), offered.version, {
        key: 'k2',
        fingerprint: 'x',
      });
      expect(replayed.status).toBe('replayed');
      if (replayed.status !== 'replayed') return;
      expect(replayed.record.fingerprint).toBe('f2');
      expect(replayed.record.response.version).toBe(game.version + 3);
      expect(replayed.record.response.moves.map((m) => m.notation)).toEqual(['1', '2', '3']);
      expect((await storage.games.idempotencyRecord(game.id, 'k4'))?.response.moves).toHaveLength(5);
    });

    it('drops the moves after a ply only for a takeback (effects.truncate), and publishes the shorter version', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      let current = game;
      for (let i = 0; i < 4; i++) {
        const next = advanced(current, String(i + 1));
        expect(await updateGame(storage.games, next, current.version)).toEqual({ status: 'updated' });
        current = next;
      }
      const shorter = (count: number): StoredGame => ({
        ...current,
        version: current.version + 1,
        ply: count,
        moves: current.moves.slice(0, count),
      });
      // Without the takeback's word, a write with fewer moves is refused and changes nothing.
      await expect(updateGame(storage.games, shorter(2), current.version)).rejects.toThrow();
      expect(await storage.games.get(game.id)).toEqual(current);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { updates } = await collect(storage, game.id, 2);
      const clock = clockIndexOf(shorter(2));
      const takeback = (next: StoredGame, expected: number) =>
        storage.games.update(next, expected, undefined, {
          notices: [],
          accounts: accountEffectsOf(next, [], clock),
          clock,
          truncate: true,
        });
      expect(await takeback(shorter(2), current.version)).toEqual({ status: 'updated' });
      expect(await storage.games.get(game.id)).toEqual(shorter(2));
      expect((await storage.games.moves(game.id, 0, 10))?.items.map((m) => m.notation)).toEqual(['1', '2']);
      // Play goes on after it; and a takeback to the start leaves no move at all.
      const replayed = advanced(shorter(2), '9');
      expect(await updateGame(storage.games, replayed, replayed.version - 1)).toEqual({ status: 'updated' });
      expect((await storage.games.get(game.id))?.moves.map((m) => m.notation)).toEqual(['1', '2', '9']);
      const none = { ...replayed, version: replayed.version + 1, ply: 0, moves: [] };
      expect(await takeback(none, replayed.version)).toEqual({ status: 'updated' });
      expect(await storage.games.get(game.id)).toEqual(none);
      expect(await storage.games.moves(game.id, 0, 10)).toEqual({ items: [], next: null });
      // The bus carries each version's head, its ply below the moves held before, and no move.
      const changes = await updates;
      expect(changes.map((c) => [c.game.version, c.game.ply, c.move?.notation ?? null])).toEqual([
        [current.version + 1, 2, null],
        [replayed.version, 3, '9'],
      ]);
      // A stale takeback is a conflict like any write.
      expect(await takeback(shorter(1), current.version)).toEqual({
        status: 'conflict',
        currentVersion: none.version,
      });
    });

    it('lists newest first with filters and a cursor that pages through every match once', async () => {
      const kind = 'oware';
      const made: StoredGame[] = [];
      for (let i = 0; i < 7; i++) {
        const game = sampleGame({ kind, status: i % 3 === 0 ? 'finished' : 'ongoing' });
        await storage.games.create({ ...game, status: 'ongoing' });
        if (game.status === 'finished') {
          const done = { ...advanced({ ...game, status: 'ongoing' }), status: 'finished' as const };
          await updateGame(storage.games, done, 0);
        }
        made.push(game);
      }
      const seen: string[] = [];
      let before: number | undefined;
      for (;;) {
        const page = await storage.games.list({ kind, status: 'ongoing' }, 2, before);
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((g) => g.id));
        for (const g of page.items) expect([g.kind, g.status]).toEqual([kind, 'ongoing']);
        if (page.next === null) break;
        before = page.next;
      }
      const expected = made.filter((g) => g.status === 'ongoing').map((g) => g.id);
      expect(seen.filter((id) => expected.includes(id))).toEqual([...expected].reverse());
      const finished = await storage.games.list({ kind, status: 'finished' }, 100);
      const finishedIds = made.filter((g) => g.status === 'finished').map((g) => g.id);
      expect(finished.items.map((g) => g.id).filter((id) => finishedIds.includes(id))).toEqual(
        [...finishedIds].reverse(),
      );
    });

    it('pages every combination of account, kind and status filters exactly, as statuses change', async () => {
      const [x, y] = [uid('lx'), uid('ly')];
      const kinds = ['kalah', 'oware'] as const;
      const made: StoredGame[] = [];
      for (let i = 0; i < 24; i++) {
        const seats: [string | null, string | null][] = [
          [x, y],
          [y, null],
          [null, x],
          [null, null],
        ];
        const game = gameOf(seats[i % 4] as [string | null, string | null], {
          kind: kinds[i % 3 === 0 ? 1 : 0],
        });
        await storage.games.create(game);
        made.push(game);
      }
      // Finish some, then take one back to ongoing (the status entries move both ways).
      const current = new Map(made.map((g) => [g.id, g]));
      const setStatus = async (game: StoredGame, status: 'ongoing' | 'finished') => {
        const stored = current.get(game.id) as StoredGame;
        const next = { ...advanced(stored), status };
        expect(await updateGame(storage.games, next, stored.version)).toEqual({ status: 'updated' });
        current.set(game.id, next);
      };
      for (const [i, game] of made.entries())
        if (i % 5 === 1 || i % 7 === 2) await setStatus(game, 'finished');
      await setStatus(made[1] as StoredGame, 'ongoing');

      const mine = new Set(made.map((g) => g.id));
      for (const account of [undefined, x, y]) {
        for (const kind of [undefined, ...kinds]) {
          for (const status of [undefined, 'ongoing', 'finished'] as const) {
            const filter = {
              ...(account ? { account } : {}),
              ...(kind ? { kind } : {}),
              ...(status ? { status } : {}),
            };
            const expected = [...current.values()]
              .filter(
                (g) =>
                  (!account || g.seats.some((s) => s.account === account)) &&
                  (!kind || g.kind === kind) &&
                  (!status || g.status === status),
              )
              .map((g) => g.id)
              .reverse();
            const seen: string[] = [];
            let before: number | undefined;
            const limit = account ? 2 : 9;
            for (let pages = 0; pages < 1000; pages++) {
              const page = await storage.games.list(filter, limit, before);
              expect(page.items.length).toBeLessThanOrEqual(limit);
              if (page.next !== null) expect(page.items).toHaveLength(limit);
              for (const game of page.items) {
                if (mine.has(game.id)) expect(game).toEqual(current.get(game.id));
                expect(game.kind === (kind ?? game.kind) && game.status === (status ?? game.status)).toBe(
                  true,
                );
              }
              seen.push(...page.items.map((g) => g.id));
              if (page.next === null) break;
              before = page.next;
            }
            expect({ filter, ids: seen.filter((id) => mine.has(id)) }).toEqual({ filter, ids: expected });
            expect(new Set(seen).size).toBe(seen.length);
          }
        }
      }
    });

    describe('games by account', () => {
      it('lists the games with a seat of an account, newest first, with the other filters and a cursor', async () => {
        const [x, y, z] = [uid('x'), uid('y'), uid('z')];
        const g1 = gameOf([x, y]);
        const g2 = gameOf([z, x], { kind: 'oware' });
        const g3 = gameOf([y, z]);
        const g4 = gameOf([x, null]);
        const g5 = gameOf([x, x]);
        for (const game of [g1, g2, g3, g4, g5]) await storage.games.create(game);
        const g4done = { ...advanced(g4), status: 'finished' as const };
        expect(await updateGame(storage.games, g4done, 0)).toEqual({ status: 'updated' });
        const ids = async (filter: Parameters<Storage['games']['list']>[0]) =>
          (await storage.games.list(filter, 100)).items.map((g) => g.id);
        expect(await ids({ account: x })).toEqual([g5.id, g4.id, g2.id, g1.id]);
        expect(await ids({ account: y })).toEqual([g3.id, g1.id]);
        expect(await ids({ account: x, kind: 'kalah' })).toEqual([g5.id, g4.id, g1.id]);
        expect(await ids({ account: x, status: 'finished' })).toEqual([g4.id]);
        expect(await ids({ account: x, status: 'ongoing' })).toEqual([g5.id, g2.id, g1.id]);
        expect(await storage.games.list({ account: uid('nobody') }, 10)).toEqual({ items: [], next: null });
        const paged: string[] = [];
        let before: number | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await storage.games.list({ account: x }, 1, before);
          expect(page.items).toHaveLength(1);
          paged.push(...page.items.map((g) => g.id));
          if (page.next === null) break;
          before = page.next;
        }
        expect(paged).toEqual([g5.id, g4.id, g2.id, g1.id]);
      });
    });

    describe('accounts', () => {
      it('creates an account with its first token and refuses an id that is taken', async () => {
        const id = uid('ann');
        const account = sampleAccount(id);
        const first = sampleToken(id, 0);
        expect(await storage.accounts.createAccount(account, first)).toBe(true);
        expect(await storage.accounts.getAccount(id)).toEqual(account);
        expect(await storage.accounts.tokenByHash(first.hash)).toEqual(first);
        const second = sampleToken(id, 1);
        expect(await storage.accounts.createAccount({ ...account, kind: 'bot' }, second)).toBe(false);
        expect(await storage.accounts.getAccount(id)).toEqual(account);
        expect(await storage.accounts.tokenByHash(second.hash)).toBeUndefined();
        expect(await storage.accounts.listTokens(id)).toEqual([first]);
      });

      it('lets exactly one of 20 concurrent sign-ups take an id', async () => {
        const id = uid('race');
        const tokens = Array.from({ length: 20 }, (_, i) => sampleToken(id, i));
        const results = await Promise.all(
          tokens.map((token, i) =>
            storage.accounts.createAccount(sampleAccount(id, { username: `u${i}` }), token),
          ),
        );
        expect(results.filter((created) => created)).toHaveLength(1);
        const winner = results.indexOf(true);
        expect((await storage.accounts.getAccount(id))?.username).toBe(`u${winner}`);
        expect(await storage.accounts.listTokens(id)).toEqual([tokens[winner]]);
        for (const [i, token] of tokens.entries()) {
          expect(await storage.accounts.tokenByHash(token.hash)).toEqual(i === winner ? token : undefined);
        }
      });

      it('reads unknown accounts and tokens as undefined', async () => {
        expect(await storage.accounts.getAccount(uid('nobody'))).toBeUndefined();
        expect(await storage.accounts.tokenByHash(uid('hash'))).toBeUndefined();
        expect(await storage.accounts.listTokens(uid('nobody'))).toEqual([]);
      });

      it('overwrites an existing account and refuses to save an unknown one', async () => {
        const id = uid('bot');
        const account = sampleAccount(id, { kind: 'bot' });
        await storage.accounts.createAccount(account, sampleToken(id, 0));
        const policy = {
          kinds: ['kalah' as const],
          timeControls: ['realtime' as const],
          options: { kalah: { seeds: [4, 6] } },
          maxGames: 3,
        };
        await storage.accounts.saveAccount({ ...account, bot: policy });
        expect(await storage.accounts.getAccount(id)).toEqual({ ...account, bot: policy });
        const stranger = uid('nobody');
        await expect(storage.accounts.saveAccount(sampleAccount(stranger))).rejects.toThrow();
        expect(await storage.accounts.getAccount(stranger)).toBeUndefined();
      });

      it("lists an account's own tokens oldest first, whatever order they were added in", async () => {
        const id = uid('tom');
        const first = sampleToken(id, 0);
        await storage.accounts.createAccount(sampleAccount(id), first);
        const third = sampleToken(id, 3);
        const second = sampleToken(id, 2, { scopes: [] });
        await storage.accounts.addToken(third);
        await storage.accounts.addToken(second);
        const other = uid('other');
        await storage.accounts.createAccount(sampleAccount(other), sampleToken(other, 1));
        expect(await storage.accounts.listTokens(id)).toEqual([first, second, third]);
        expect(await storage.accounts.tokenByHash(second.hash)).toEqual(second);
      });

      it('revokes a token once, keeps it findable by hash, and ignores unknown or foreign ids', async () => {
        const id = uid('rev');
        const first = sampleToken(id, 0);
        const second = sampleToken(id, 1);
        await storage.accounts.createAccount(sampleAccount(id), first);
        await storage.accounts.addToken(second);
        const at = '2026-02-01T00:00:00.000Z';
        const revoked = { ...second, revokedAt: at };
        expect(await storage.accounts.revokeToken(id, second.id, at)).toEqual({
          status: 'revoked',
          token: revoked,
        });
        expect(await storage.accounts.tokenByHash(second.hash)).toEqual(revoked);
        expect(await storage.accounts.listTokens(id)).toEqual([first, revoked]);
        // Revoking again keeps the first revocation time.
        expect(await storage.accounts.revokeToken(id, second.id, '2026-03-01T00:00:00.000Z')).toEqual({
          status: 'revoked',
          token: revoked,
        });
        expect(await storage.accounts.tokenByHash(second.hash)).toEqual(revoked);
        expect(await storage.accounts.revokeToken(id, uid('tok'), at)).toEqual({ status: 'missing' });
        const other = uid('other');
        await storage.accounts.createAccount(sampleAccount(other), sampleToken(other, 0));
        expect(await storage.accounts.revokeToken(other, first.id, at)).toEqual({ status: 'missing' });
        expect(await storage.accounts.tokenByHash(first.hash)).toEqual(first);
      });

      it('keeps the last root token: never expiring, not revoked, with every root scope', async () => {
        const id = uid('root');
        const scopes = ['game:read', 'game:play'] as const;
        const root = sampleToken(id, 0);
        const reader = sampleToken(id, 1, { scopes: ['game:read'] });
        const expiring = sampleToken(id, 2, { expiresAt: '2999-01-01T00:00:00.000Z' });
        await storage.accounts.createAccount(sampleAccount(id), root);
        await storage.accounts.addToken(reader);
        await storage.accounts.addToken(expiring);
        const at = '2026-02-01T00:00:00.000Z';
        // Neither a narrower nor an expiring token counts as a root: the root stays.
        expect(await storage.accounts.revokeToken(id, root.id, at, scopes)).toEqual({
          status: 'last-root',
          token: root,
        });
        expect((await storage.accounts.tokenByHash(root.hash))?.revokedAt).toBeNull();
        // Others go; without the guard any token goes.
        expect((await storage.accounts.revokeToken(id, reader.id, at, scopes)).status).toBe('revoked');
        expect((await storage.accounts.revokeToken(id, expiring.id, at, scopes)).status).toBe('revoked');
        // With a second root, exactly one of two racing revocations of the two roots wins.
        const spare = sampleToken(id, 3);
        await storage.accounts.addToken(spare);
        const results = await Promise.all([
          storage.accounts.revokeToken(id, root.id, at, scopes),
          storage.accounts.revokeToken(id, spare.id, at, scopes),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual(['last-root', 'revoked']);
        const live = (await storage.accounts.listTokens(id)).filter((t) => t.revokedAt === null);
        expect(live).toHaveLength(1);
        expect((await storage.accounts.revokeToken(id, live[0]!.id, at)).status).toBe('revoked');
      });

      it('records the last use of a token apart from its revocation', async () => {
        const id = uid('used');
        const token = sampleToken(id, 0);
        await storage.accounts.createAccount(sampleAccount(id), token);
        const used = '2026-02-01T10:00:00.000Z';
        await storage.accounts.touchToken(token.hash, used);
        expect(await storage.accounts.tokenByHash(token.hash)).toEqual({ ...token, lastUsedAt: used });
        expect(await storage.accounts.listTokens(id)).toEqual([{ ...token, lastUsedAt: used }]);
        const at = '2026-02-02T00:00:00.000Z';
        const result = await storage.accounts.revokeToken(id, token.id, at);
        expect(result).toEqual({ status: 'revoked', token: { ...token, lastUsedAt: used, revokedAt: at } });
        await storage.accounts.touchToken(token.hash, '2026-02-03T00:00:00.000Z');
        expect((await storage.accounts.tokenByHash(token.hash))?.revokedAt).toBe(at);
      });
    });

    describe('game limits', () => {
      it('counts ongoing games per account and refuses a create past a limit, writing nothing', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const first = gameOf([a, b]);
        expect(await storage.games.create(first, [], [{ account: a, max: 1 }])).toEqual({
          status: 'created',
        });
        expect(await storage.games.countOngoing(a)).toBe(1);
        const second = gameOf([b, a]);
        const refused = await storage.games.create(
          second,
          [notice([a, b], 'game.started')],
          [
            { account: b, max: 5 },
            { account: a, max: 1 },
          ],
        );
        expect(refused).toEqual({ status: 'too-many-games', account: a });
        expect(await storage.games.get(second.id)).toBeUndefined();
        expect((await storage.feed.read(a, 0, 10)).last).toBe(0);
        // A finished game no longer counts.
        const over = { ...advanced(first), status: 'finished' as const, toMove: null, version: 1 };
        expect((await updateGame(storage.games, over, 0)).status).toBe('updated');
        expect(await storage.games.countOngoing(a)).toBe(0);
        expect(await storage.games.create(second, [], [{ account: a, max: 1 }])).toEqual({
          status: 'created',
        });
        expect(await storage.games.countOngoing(b)).toBe(1);
      });

      it('checks the limits in the write that makes a challenge a game: 20 racing accepts, 2 games', async () => {
        const bot = uid('bot');
        const writes = Array.from({ length: 20 }, async () => {
          const human = uid('h');
          const challenge = sampleChallenge(human, bot);
          await storage.challenges.createChallenge(challenge, []);
          const game = gameOf([human, bot], { id: challenge.id });
          return storage.challenges.updateChallenge(
            { ...challenge, version: 1, status: 'accepted', accepted: [bot], gameId: game.id },
            0,
            { notices: [notice([human, bot], 'game.started')], game, limits: [{ account: bot, max: 2 }] },
          );
        });
        const results = await Promise.all(writes);
        expect(results.filter((r) => r === 'updated')).toHaveLength(2);
        expect(results.filter((r) => typeof r === 'object')).toEqual(Array(18).fill({ tooManyGames: bot }));
        expect(await storage.games.countOngoing(bot)).toBe(2);
        expect((await storage.games.list({ account: bot }, 100)).items).toHaveLength(2);
        expect((await storage.feed.read(bot, 0, 100)).last).toBe(2);
      });
    });

    describe('idempotency of creates', () => {
      it('claims a key once, answers pending then done, and frees a released claim', async () => {
        const key = uid('idem');
        expect(await storage.idempotency.claim(key, 'f1', 30_000)).toEqual({ status: 'claimed' });
        expect(await storage.idempotency.claim(key, 'f2', 30_000)).toEqual({
          status: 'pending',
          fingerprint: 'f1',
        });
        await storage.idempotency.complete(key, 'f1', '{"id":1}', 60);
        expect(await storage.idempotency.claim(key, 'f1', 30_000)).toEqual({
          status: 'done',
          fingerprint: 'f1',
          response: '{"id":1}',
        });
        // An answered key is never released.
        await storage.idempotency.release(key);
        expect((await storage.idempotency.claim(key, 'f1', 30_000)).status).toBe('done');
        const other = uid('idem');
        expect((await storage.idempotency.claim(other, 'f', 30_000)).status).toBe('claimed');
        await storage.idempotency.release(other);
        expect((await storage.idempotency.claim(other, 'g', 30_000)).status).toBe('claimed');
      });

      it('gives a key to exactly one of 20 concurrent claims', async () => {
        const key = uid('idem');
        const claims = await Promise.all(
          Array.from({ length: 20 }, (_, i) => storage.idempotency.claim(key, `f${i}`, 30_000)),
        );
        expect(claims.filter((c) => c.status === 'claimed')).toHaveLength(1);
        expect(claims.filter((c) => c.status === 'pending')).toHaveLength(19);
      });

      it('frees a pending claim after its time', async () => {
        const key = uid('idem');
        expect((await storage.idempotency.claim(key, 'f', 50)).status).toBe('claimed');
        await new Promise((resolve) => setTimeout(resolve, 120));
        expect((await storage.idempotency.claim(key, 'g', 50)).status).toBe('claimed');
      });
    });

    describe('challenges', () => {
      it('stores a challenge and appends its notices; a taken id is refused and appends nothing', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const challenge = sampleChallenge(a, b);
        const received = notice([b], 'challenge.received', { challenge: challenge.id });
        await storage.challenges.createChallenge(challenge, [received]);
        expect(await storage.challenges.getChallenge(challenge.id)).toEqual(challenge);
        expect(await storage.feed.read(b, 0, 10)).toMatchObject({
          events: [
            {
              seq: 1,
              epoch: expect.any(String),
              type: 'challenge.received',
              at: received.at,
              data: { challenge: challenge.id },
            },
          ],
          last: 1,
          first: 1,
        });
        expect((await storage.feed.read(a, 0, 10)).last).toBe(0);
        await expect(
          storage.challenges.createChallenge({ ...challenge, kind: 'oware' }, [notice([b])]),
        ).rejects.toThrow();
        expect(await storage.challenges.getChallenge(challenge.id)).toEqual(challenge);
        expect((await storage.feed.read(b, 0, 10)).last).toBe(1);
        expect(await storage.challenges.getChallenge(uid('ch'))).toBeUndefined();
      });

      it('updates at the expected version only; a conflict or a missing challenge appends nothing', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const challenge = sampleChallenge(a, b);
        await storage.challenges.createChallenge(challenge, []);
        const declined: StoredChallenge = {
          ...challenge,
          version: 1,
          status: 'declined',
          declineReason: 'later',
          closedBy: b,
        };
        expect(
          await storage.challenges.updateChallenge(declined, 0, {
            notices: [notice([a, b], 'challenge.declined', { id: challenge.id })],
          }),
        ).toBe('updated');
        expect(await storage.challenges.getChallenge(challenge.id)).toEqual(declined);
        const stale = { ...challenge, version: 1, status: 'canceled' as const, closedBy: a };
        expect(await storage.challenges.updateChallenge(stale, 0, { notices: [notice([a, b])] })).toBe(
          'conflict',
        );
        expect(await storage.challenges.getChallenge(challenge.id)).toEqual(declined);
        const missing = sampleChallenge(a, b, { version: 1 });
        expect(await storage.challenges.updateChallenge(missing, 0, { notices: [notice([a, b])] })).toBe(
          'missing',
        );
        expect(await storage.challenges.getChallenge(missing.id)).toBeUndefined();
        for (const account of [a, b]) {
          const page = await storage.feed.read(account, 0, 10);
          expect(page.events.map((e) => e.type)).toEqual(['challenge.declined']);
        }
      });

      it('lets exactly one of 100 concurrent updates at one version win, with its notice alone', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const challenge = sampleChallenge(a, b);
        await storage.challenges.createChallenge(challenge, []);
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            storage.challenges.updateChallenge(
              {
                ...challenge,
                version: 1,
                status: 'declined',
                closedBy: b,
                declineReason: 'generic',
                updatedAt: iso(i),
              },
              0,
              { notices: [notice([a], 'challenge.declined', { writer: i })] },
            ),
          ),
        );
        expect(results.filter((r) => r === 'updated')).toHaveLength(1);
        expect(results.filter((r) => r === 'conflict')).toHaveLength(99);
        const winner = results.indexOf('updated');
        expect((await storage.challenges.getChallenge(challenge.id))?.updatedAt).toBe(iso(winner));
        const feed = await storage.feed.read(a, 0, 200);
        expect(feed.events.map((e) => e.data)).toEqual([{ writer: winner }]);
      });

      it('creates the game a challenge became in the same write, indexed like any new game', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const challenge = sampleChallenge(a, b, { kind: 'congkak' });
        await storage.challenges.createChallenge(challenge, []);
        const game = gameOf([b, a], { id: challenge.id, kind: 'congkak' });
        const accepted: StoredChallenge = {
          ...challenge,
          version: 1,
          status: 'accepted',
          accepted: [b],
          gameId: game.id,
        };
        const result = await storage.challenges.updateChallenge(accepted, 0, {
          notices: [
            notice([a, b], 'challenge.accepted', { challenge: challenge.id }),
            notice([a, b], 'game.started', { game: game.id }),
          ],
          game,
        });
        expect(result).toBe('updated');
        expect(await storage.challenges.getChallenge(challenge.id)).toEqual(accepted);
        expect(await storage.games.get(game.id)).toEqual(game);
        for (const account of [a, b]) {
          expect((await storage.games.list({ account }, 10)).items).toEqual([game]);
          const feed = await storage.feed.read(account, 0, 10);
          expect(feed.events.map((e) => [e.seq, e.type])).toEqual([
            [1, 'challenge.accepted'],
            [2, 'game.started'],
          ]);
        }
        const ongoing = await storage.games.list({ kind: 'congkak', status: 'ongoing' }, 100);
        expect(ongoing.items.map((g) => g.id)).toContain(game.id);
        expect(await storage.challenges.listOpen(a)).toEqual([]);

        // A game id that is taken fails the whole update: nothing written, nothing appended.
        const taken = gameOf([a, b]);
        await storage.games.create(taken);
        const again = sampleChallenge(a, b, { id: taken.id });
        await storage.challenges.createChallenge(again, []);
        await expect(
          storage.challenges.updateChallenge(
            { ...again, version: 1, status: 'accepted', gameId: taken.id },
            0,
            {
              notices: [notice([a, b], 'game.started')],
              game: { ...game, id: taken.id },
            },
          ),
        ).rejects.toThrow();
        expect(await storage.challenges.getChallenge(again.id)).toEqual(again);
        expect((await storage.feed.read(a, 0, 10)).last).toBe(2);
        expect((await storage.challenges.listOpen(a)).map((c) => c.id)).toEqual([again.id]);
      });

      it('gives the accounts that join an open challenge its later notices, each once and in order', async () => {
        const [x, a, b] = [uid('x'), uid('a'), uid('b')];
        const challenge = sampleChallenge(x, null);
        await storage.challenges.createChallenge(challenge, []);
        const first = { ...challenge, version: 1, accepted: [a] };
        expect(
          await storage.challenges.updateChallenge(first, 0, {
            notices: [notice([x, a], 'challenge.accepted', { by: a })],
          }),
        ).toBe('updated');
        const game = gameOf([a, b], { id: challenge.id });
        const started = {
          ...first,
          version: 2,
          status: 'accepted' as const,
          accepted: [a, b],
          gameId: game.id,
        };
        expect(
          await storage.challenges.updateChallenge(started, 1, {
            notices: [
              notice([x, a, b], 'challenge.accepted', { by: b }),
              notice([a, b], 'game.started', { game: game.id }),
            ],
            game,
          }),
        ).toBe('updated');
        const feed = async (account: string) =>
          (await storage.feed.read(account, 0, 10)).events.map((e) => [e.seq, e.type, e.data]);
        expect(await feed(x)).toEqual([
          [1, 'challenge.accepted', { by: a }],
          [2, 'challenge.accepted', { by: b }],
        ]);
        expect(await feed(a)).toEqual([
          [1, 'challenge.accepted', { by: a }],
          [2, 'challenge.accepted', { by: b }],
          [3, 'game.started', { game: game.id }],
        ]);
        expect(await feed(b)).toEqual([
          [1, 'challenge.accepted', { by: b }],
          [2, 'game.started', { game: game.id }],
        ]);
        expect((await storage.games.list({ account: b }, 10)).items).toEqual([game]);
        expect(await storage.challenges.listOpen(x)).toEqual([]);
      });

      it('lists the open challenges of each involved account, newest first', async () => {
        const [a, b, x, y] = [uid('a'), uid('b'), uid('x'), uid('y')];
        const base = Date.now();
        const at = (n: number) => ({ createdAt: iso(base + n * SECOND), updatedAt: iso(base + n * SECOND) });
        const c1 = sampleChallenge(a, b, at(1));
        const c2 = sampleChallenge(b, a, at(2));
        const c3 = sampleChallenge(x, null, { ...at(3), players: [a, y], starts: 'listed' });
        const c4 = sampleChallenge(a, y, at(4));
        const c5 = sampleChallenge(x, y, at(5));
        const c6 = sampleChallenge(a, null, at(6));
        for (const c of [c1, c2, c3, c4, c5, c6]) await storage.challenges.createChallenge(c, []);
        const canceled = { ...c4, version: 1, status: 'canceled' as const, closedBy: a };
        expect(await storage.challenges.updateChallenge(canceled, 0, { notices: [] })).toBe('updated');
        const ids = async (account: string) => (await storage.challenges.listOpen(account)).map((c) => c.id);
        expect(await ids(a)).toEqual([c6.id, c3.id, c2.id, c1.id]);
        expect(await ids(b)).toEqual([c2.id, c1.id]);
        expect(await ids(x)).toEqual([c5.id, c3.id]);
        expect(await ids(y)).toEqual([c5.id, c3.id]);
        expect(await ids(uid('nobody'))).toEqual([]);
        expect((await storage.challenges.listOpen(b))[0]).toEqual(c2);
        // Still open after one of two acceptances: still listed, as updated.
        const half = { ...c3, version: 1, accepted: [a] };
        expect(await storage.challenges.updateChallenge(half, 0, { notices: [] })).toBe('updated');
        expect((await storage.challenges.listOpen(y)).find((c) => c.id === c3.id)).toEqual(half);
      });

      it('lists the ids of open challenges due at a time, oldest first, up to a limit', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const created = { createdAt: '2001-01-01T00:00:00.000Z', updatedAt: '2001-01-01T00:00:00.000Z' };
        const d0 = sampleChallenge(a, b, { ...created, expiresAt: '2001-01-01T00:00:00.500Z' });
        const d3 = sampleChallenge(a, b, { ...created, expiresAt: '2001-01-01T00:00:03.000Z' });
        const d2 = sampleChallenge(a, b, { ...created, expiresAt: '2001-01-01T00:00:02.000Z' });
        const d1 = sampleChallenge(a, b, { ...created, expiresAt: '2001-01-01T00:00:01.000Z' });
        for (const c of [d0, d3, d2, d1]) await storage.challenges.createChallenge(c, []);
        const expired = { ...d0, version: 1, status: 'expired' as const };
        expect(await storage.challenges.updateChallenge(expired, 0, { notices: [] })).toBe('updated');
        expect(await storage.challenges.dueChallenges('2001-01-01T00:00:02.000Z', 10)).toEqual([
          d1.id,
          d2.id,
        ]);
        expect(await storage.challenges.dueChallenges('2001-01-01T00:00:02.000Z', 1)).toEqual([d1.id]);
        expect(await storage.challenges.dueChallenges('2001-01-01T00:00:00.999Z', 10)).toEqual([]);
        expect(await storage.challenges.dueChallenges('2001-01-01T00:00:09.000Z', 10)).toEqual([
          d1.id,
          d2.id,
          d3.id,
        ]);
      });
    });

    describe('seeks', () => {
      // Pools are free text; these contain characters with a meaning in Redis keys and patterns.
      const poolName = () => `${uid('pool')} kalah{seeds:4}*[rt 300+2]`;

      it('queues a seek, then hands it to the next seek by another account', async () => {
        const pool = poolName();
        const s1 = sampleSeek(uid('a'), pool);
        const s2 = sampleSeek(uid('b'), pool);
        const s3 = sampleSeek(uid('c'), pool);
        expect(await storage.seeks.matchOrAdd(s1, s1.createdAt)).toBeUndefined();
        expect(await storage.seeks.getSeek(s1.id)).toEqual(s1);
        expect(await storage.seeks.matchOrAdd(s2, s2.createdAt)).toEqual(s1);
        expect(await storage.seeks.getSeek(s1.id)).toBeUndefined();
        expect(await storage.seeks.getSeek(s2.id)).toBeUndefined();
        expect(await storage.seeks.matchOrAdd(s3, s3.createdAt)).toBeUndefined();
        expect(await storage.seeks.getSeek(s3.id)).toEqual(s3);
      });

      it('never matches an account with itself, nor seeks of different pools', async () => {
        const [pool, elsewhere] = [poolName(), poolName()];
        const [a, b, c] = [uid('a'), uid('b'), uid('c')];
        const now = iso(Date.now());
        const a1 = sampleSeek(a, pool);
        const a2 = sampleSeek(a, pool);
        expect(await storage.seeks.matchOrAdd(a1, now)).toBeUndefined();
        expect(await storage.seeks.matchOrAdd(a2, now)).toBeUndefined();
        expect(await storage.seeks.matchOrAdd(sampleSeek(b, elsewhere), now)).toBeUndefined();
        expect(await storage.seeks.matchOrAdd(sampleSeek(b, pool), now)).toEqual(a1);
        expect(await storage.seeks.matchOrAdd(sampleSeek(c, pool), now)).toEqual(a2);
        expect(await storage.seeks.matchOrAdd(sampleSeek(c, pool), now)).toBeUndefined();
      });

      it('drops expired seeks met on the way (expiring at `now` counts as expired)', async () => {
        const pool = poolName();
        const t = Date.now();
        const s1 = sampleSeek(uid('a'), pool, { expiresAt: iso(t + 60 * SECOND) });
        const s2 = sampleSeek(uid('b'), pool, { expiresAt: iso(t + 120 * SECOND) });
        const s3 = sampleSeek(uid('c'), pool, { expiresAt: iso(t + 600 * SECOND) });
        expect(await storage.seeks.matchOrAdd(s1, iso(t))).toBeUndefined();
        expect(await storage.seeks.matchOrAdd(s2, iso(t))).toEqual(s1);
        expect(await storage.seeks.matchOrAdd(s3, iso(t + 120 * SECOND))).toBeUndefined();
        // s2 never waited (it matched s1); now s3 waits alone.
        const s4 = sampleSeek(uid('d'), pool, { expiresAt: iso(t + 900 * SECOND) });
        const s5 = sampleSeek(uid('e'), pool);
        expect(await storage.seeks.matchOrAdd(s4, s3.expiresAt)).toBeUndefined();
        expect(await storage.seeks.getSeek(s3.id)).toBeUndefined();
        expect(await storage.seeks.removeSeek(s3.id)).toBe(false);
        expect(await storage.seeks.matchOrAdd(s5, iso(t + 700 * SECOND))).toEqual(s4);
      });

      it('removes a waiting seek once; matched and unknown seeks are not removable', async () => {
        const pool = poolName();
        const s1 = sampleSeek(uid('a'), pool);
        const s2 = sampleSeek(uid('b'), pool);
        const now = s1.createdAt;
        expect(await storage.seeks.matchOrAdd(s1, now)).toBeUndefined();
        expect(await storage.seeks.removeSeek(s1.id)).toBe(true);
        expect(await storage.seeks.removeSeek(s1.id)).toBe(false);
        expect(await storage.seeks.getSeek(s1.id)).toBeUndefined();
        expect(await storage.seeks.matchOrAdd(s2, now)).toBeUndefined();
        expect(await storage.seeks.matchOrAdd(sampleSeek(uid('c'), pool), now)).toEqual(s2);
        expect(await storage.seeks.removeSeek(s2.id)).toBe(false);
        expect(await storage.seeks.removeSeek(uid('seek'))).toBe(false);
      });

      it('pairs 20 concurrent seekers of one pool into exactly 10 games, leaving nobody waiting', async () => {
        const pool = poolName();
        const seeks = Array.from({ length: 20 }, () => sampleSeek(uid('p'), pool));
        const now = iso(Date.now());
        const results = await Promise.all(seeks.map((s) => storage.seeks.matchOrAdd(s, now)));
        const partners = results.filter((r): r is StoredSeek => r !== undefined).map((r) => r.id);
        const matchers = seeks.filter((_, i) => results[i] !== undefined).map((s) => s.id);
        expect(partners).toHaveLength(10);
        expect(new Set([...partners, ...matchers])).toEqual(new Set(seeks.map((s) => s.id)));
        for (const s of seeks) expect(await storage.seeks.getSeek(s.id)).toBeUndefined();
        const late = sampleSeek(uid('late'), pool);
        expect(await storage.seeks.matchOrAdd(late, now)).toBeUndefined();
        expect(await storage.seeks.removeSeek(late.id)).toBe(true);
      });
    });

    describe('feed', () => {
      it('numbers each account’s events 1, 2, 3 without gaps and pages after a seq', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const n1 = notice([a, b], 'challenge.received', { n: 1 });
        const n2 = notice([a], 'game.moved', { n: 2 });
        const n3 = notice([a, a, b], 'game.finished', {
          n: 3,
          nested: { list: [], text: 'é "q" \\ ✓', x: 0.1 },
        });
        await storage.feed.append([n1, n2]);
        await storage.feed.append([n3]);
        const { epoch } = await storage.feed.read(a, 0, 0);
        expect(epoch).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
        const epochs = [{ id: epoch, since: 0 }];
        const events: FeedEvent[] = [
          { seq: 1, epoch, type: n1.type, at: n1.at, data: n1.data },
          { seq: 2, epoch, type: n2.type, at: n2.at, data: n2.data },
          { seq: 3, epoch, type: n3.type, at: n3.at, data: n3.data },
        ];
        const page = { last: 3, first: 1, epoch, epochs };
        expect(await storage.feed.read(a, 0, 10)).toEqual({ events, ...page });
        expect(await storage.feed.read(a, 1, 1)).toEqual({ events: [events[1]], ...page });
        expect(await storage.feed.read(a, 3, 10)).toEqual({ events: [], ...page });
        expect(await storage.feed.read(a, 0, 0)).toEqual({ events: [], ...page });
        const forB = await storage.feed.read(b, 0, 10);
        expect(forB.events.map((e) => [e.seq, e.type])).toEqual([
          [1, 'challenge.received'],
          [2, 'game.finished'],
        ]);
        const nobody = await storage.feed.read(uid('nobody'), 0, 10);
        expect(nobody).toEqual({
          events: [],
          last: 0,
          first: 1,
          epoch: nobody.epoch,
          epochs: [{ id: nobody.epoch, since: 0 }],
        });
        await storage.feed.append([]);
        expect((await storage.feed.read(a, 0, 10)).last).toBe(3);
      });

      it('trims events older than the retention before the time of each new one', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const t0 = Date.parse('2020-01-01T00:00:00.000Z');
        const at = (ms: number) => notice([a], 'game.moved', { ms }, iso(ms));
        await storage.feed.append([notice([a, b], 'game.started', {}, iso(t0)), at(t0 + HOUR)]);
        await storage.feed.append([at(t0 + FEED_RETENTION_MS + HOUR / 2)]);
        let page = await storage.feed.read(a, 0, 10);
        expect([page.first, page.last, page.events.map((e) => e.seq)]).toEqual([2, 3, [2, 3]]);
        // An event exactly at the cutoff stays.
        await storage.feed.append([at(t0 + FEED_RETENTION_MS + HOUR)]);
        page = await storage.feed.read(a, 0, 10);
        expect([page.first, page.last, page.events.map((e) => e.seq)]).toEqual([2, 4, [2, 3, 4]]);
        await storage.feed.append([at(t0 + FEED_RETENTION_MS + 2 * HOUR)]);
        page = await storage.feed.read(a, 0, 10);
        expect([page.first, page.last, page.events.map((e) => e.seq)]).toEqual([3, 5, [3, 4, 5]]);
        await storage.feed.append([at(t0 + 10 * FEED_RETENTION_MS)]);
        page = await storage.feed.read(a, 0, 10);
        expect(page).toEqual({
          epoch: page.epoch,
          epochs: [{ id: page.epoch, since: 0 }],
          events: [
            {
              seq: 6,
              epoch: page.epoch,
              type: 'game.moved',
              at: iso(t0 + 10 * FEED_RETENTION_MS),
              data: { ms: t0 + 10 * FEED_RETENTION_MS },
            },
          ],
          last: 6,
          first: 6,
        });
        // Trimming is per feed: b had no newer event, so it keeps its old one.
        expect((await storage.feed.read(b, 0, 10)).events.map((e) => e.seq)).toEqual([1]);
      });

      it('trims by age, and by count past FEED_MAX_EVENTS (the oldest first)', async () => {
        const a = uid('a');
        const t0 = Date.parse('2021-01-01T00:00:00.000Z');
        const burst = (from: number, count: number) =>
          Array.from({ length: count }, (_, i) =>
            notice([a], 'game.moved', { i: from + i }, iso(t0 + from + i)),
          );
        // Bursts of 1 000: one append is one script, which must finish within the command timeout on a
        // loaded machine's Cluster (3 000 at once took close to 2 s there).
        for (let i = 0; i < 9_000; i += 1_000) await storage.feed.append(burst(i, 1_000));
        let page = await storage.feed.read(a, 0, 1);
        expect([page.first, page.last, page.events[0]?.data]).toEqual([1, 9_000, { i: 0 }]);
        // The first event leaves only once it is older than the retention.
        await storage.feed.append([notice([a], 'game.moved', {}, iso(t0 + FEED_RETENTION_MS))]);
        page = await storage.feed.read(a, 0, 1);
        expect([page.first, page.last]).toEqual([1, 9_001]);
        const late = iso(t0 + FEED_RETENTION_MS + 10);
        await storage.feed.append([notice([a], 'game.moved', {}, late)]);
        page = await storage.feed.read(a, 0, 1);
        expect([page.first, page.last]).toEqual([11, 9_002]);
        // Past FEED_MAX_EVENTS kept, the oldest go however young (8 992 kept + 1 010 = 10 002).
        const more = Array.from({ length: 1_010 }, () => notice([a], 'game.moved', {}, late));
        await storage.feed.append(more);
        page = await storage.feed.read(a, 12, 1);
        expect([page.first, page.last, FEED_MAX_EVENTS]).toEqual([13, 10_012, 10_000]);
        await expect(storage.feed.read(a, 0, 1).then((p) => p.first)).resolves.toBe(13);
      });

      it('keeps one epoch per feed across appends and reads, carried by every event, stored and live', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const { updates } = await collectFeed(storage, a, 2);
        await storage.feed.append([notice([a, b], 'game.started')]);
        const first = await storage.feed.read(a, 0, 10);
        await storage.feed.append([notice([a], 'game.moved')]);
        const second = await storage.feed.read(a, 0, 10);
        expect(second.epoch).toBe(first.epoch);
        expect(second.epochs).toEqual([{ id: first.epoch, since: 0 }]);
        expect(second.events.map((e) => e.epoch)).toEqual([first.epoch, first.epoch]);
        expect((await updates).map((e) => e.epoch)).toEqual([first.epoch, first.epoch]);
        const other = await storage.feed.read(b, 0, 10);
        expect(other.events.map((e) => e.epoch)).toEqual([other.epoch]);
      });

      it('delivers appended events live and in order to the account’s subscribers only', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const { updates } = await collectFeed(storage, a, 4);
        const forB: FeedEvent[] = [];
        const offB = await storage.feed.subscribe(b, (e) => forB.push(e));
        await storage.feed.append([notice([a], 'game.moved', { n: 1 })]);
        await storage.feed.append([
          notice([a], 'game.moved', { n: 2 }),
          notice([a], 'draw.offered', { n: 3 }),
        ]);
        await storage.feed.append([notice([a], 'game.finished', { n: 4 })]);
        const received = await updates;
        expect(received).toEqual((await storage.feed.read(a, 0, 10)).events);
        expect(received.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
        await settle();
        expect(forB).toEqual([]);
        await storage.feed.append([notice([b], 'game.started', { n: 5 })]);
        await settle();
        expect(forB.map((e) => [e.seq, e.data])).toEqual([[1, { n: 5 }]]);
        await offB();
        await storage.feed.append([notice([b], 'game.moved')]);
        await settle();
        expect(forB).toHaveLength(1);
      });

      it('appends the notices of a game write with it; a replay, conflict or missing game appends nothing', async () => {
        const [a, b, c] = [uid('a'), uid('b'), uid('c')];
        const game = gameOf([a, b]);
        await storage.games.create(game, [notice([a, b], 'game.started', { game: game.id })]);
        const last = async (account: string) => (await storage.feed.read(account, 0, 100)).last;
        expect([await last(a), await last(b)]).toEqual([1, 1]);
        await expect(storage.games.create(game, [notice([c], 'game.started')])).rejects.toThrow();
        expect(await last(c)).toBe(0);
        const next = advanced(game);
        const key = { key: uid('k'), fingerprint: 'move:3' };
        const moved = notice([a, b], 'game.moved', { ply: 1 });
        expect(await updateGame(storage.games, next, 0, key, [moved])).toEqual({ status: 'updated' });
        expect([await last(a), await last(b)]).toEqual([2, 2]);
        expect((await storage.feed.read(a, 1, 10)).events).toEqual([
          { seq: 2, epoch: expect.any(String), type: 'game.moved', at: moved.at, data: { ply: 1 } },
        ]);
        const replay = await updateGame(storage.games, advanced(next), 1, key, [notice([a, b])]);
        expect(replay.status).toBe('replayed');
        const conflict = await updateGame(storage.games, advanced(game, '5'), 0, undefined, [notice([a, b])]);
        expect(conflict).toEqual({ status: 'conflict', currentVersion: 1 });
        expect(
          await updateGame(storage.games, advanced(gameOf([c, c])), 0, undefined, [notice([c])]),
        ).toEqual({
          status: 'missing',
        });
        expect([await last(a), await last(b), await last(c)]).toEqual([2, 2, 0]);
      });

      it('appends only the winning notice of 50 concurrent game updates at one version', async () => {
        const a = uid('a');
        const game = gameOf([a, null]);
        await storage.games.create(game);
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            updateGame(storage.games, advanced(game, String(i)), 0, undefined, [
              notice([a], 'game.moved', { move: String(i) }),
            ]),
          ),
        );
        expect(results.filter((r) => r.status === 'updated')).toHaveLength(1);
        const stored = await storage.games.get(game.id);
        const page = await storage.feed.read(a, 0, 100);
        expect(page.events.map((e) => e.data)).toEqual([{ move: stored?.moves[0]?.notation }]);
      });

      it('never shows a game version whose notices are not in the feed yet', async () => {
        const a = uid('a');
        const game = gameOf([a, null]);
        await storage.games.create(game);
        let done = false;
        const behind: Array<[number, number]> = [];
        const reader = (async () => {
          while (!done) {
            const version = (await storage.games.get(game.id))?.version ?? 0;
            const { last } = await storage.feed.read(a, 0, 1);
            if (last < version) behind.push([version, last]);
          }
        })();
        let current = game;
        for (let i = 0; i < 30; i++) {
          const next = advanced(current);
          await updateGame(storage.games, next, current.version, undefined, [
            notice([a], 'game.moved', { v: next.version }),
          ]);
          current = next;
        }
        done = true;
        await reader;
        expect(behind).toEqual([]);
        expect((await storage.feed.read(a, 0, 100)).events.map((e) => e.data.v)).toEqual(
          Array.from({ length: 30 }, (_, i) => i + 1),
        );
      });
    });

    describe('webhooks', () => describeWebhookContract(() => storage));
    describe('tournaments', () => describeTournamentContract(() => storage));
    describe('blocks', () => describeBlockContract(() => storage));
    describe('chat', () => describeChatContract(() => storage));
    describe('apps', () => describeAppContract(() => storage));
    describe('erasure', () => describeErasureContract(() => storage));
    describe('TV candidates', () => {
      it('ranks by score then id, replaces a score, removes; a kind sees only its own', async () => {
        const [low, high, tie, other] = [uid('tvl'), uid('tvh'), uid('tvt'), uid('tvo')];
        const mine = (ids: string[]) => ids.filter((id) => [low, high, tie, other].includes(id));
        await storage.featured.add('kalah', low, featuredScore([1500, undefined], 1_000_000));
        await storage.featured.add('kalah', high, featuredScore([1800, 1900], 1_000_000));
        await storage.featured.add('kalah', tie, featuredScore([], 2_000_000));
        await storage.featured.add('oware', other, featuredScore([3000, 3000], 0));
        expect(mine(await storage.featured.top('kalah', 1000))).toEqual([high, low, tie]);
        // A casual game that started later comes before an earlier one of the same (zero) rating.
        await storage.featured.add('kalah', low, featuredScore([], 1_000_000));
        expect(mine(await storage.featured.top('kalah', 1000))).toEqual([high, tie, low]);
        await storage.featured.remove('kalah', high);
        await storage.featured.remove('kalah', high);
        expect(mine(await storage.featured.top('kalah', 1000))).toEqual([tie, low]);
        expect(mine(await storage.featured.top('oware', 1000))).toEqual([other]);
        expect(await storage.featured.top('kalah', 0)).toEqual([]);
        expect((await storage.featured.top('kalah', 1)).length).toBe(1);
      });
    });
    describe('push endpoints', () => {
      it('stores one endpoint per account: set, replace, read, list, delete', async () => {
        const [a, b] = [uid('pa'), uid('pb')];
        const first = {
          account: a,
          url: 'https://a.example/move',
          secret: 's1',
          createdAt: new Date().toISOString(),
        };
        expect(await storage.push.getPushEndpoint(a)).toBeUndefined();
        await storage.push.setPushEndpoint(first);
        await storage.push.setPushEndpoint({ ...first, account: b, url: 'https://b.example/move' });
        expect(await storage.push.getPushEndpoint(a)).toEqual(first);
        const replaced = { ...first, url: 'https://a.example/v2', secret: 's2' };
        await storage.push.setPushEndpoint(replaced);
        expect(await storage.push.getPushEndpoint(a)).toEqual(replaced);
        expect(await storage.push.listPushAccounts()).toEqual(expect.arrayContaining([a, b]));
        expect(await storage.push.deletePushEndpoint(a)).toBe(true);
        expect(await storage.push.deletePushEndpoint(a)).toBe(false);
        expect(await storage.push.getPushEndpoint(a)).toBeUndefined();
        const listed = await storage.push.listPushAccounts();
        expect(listed).toContain(b);
        expect(listed).not.toContain(a);
      });
    });
    describe('clocks', () => {
      // Each test gets an empty storage: claims and lists see every game of the keyspace.
      let fresh: Storage;
      beforeEach(async () => {
        fresh = await open();
      });
      afterEach(async () => {
        await fresh.games.close();
        await fresh.events.close();
      });

      const T0 = Date.parse('2031-03-01T00:00:00.000Z');
      /** An ongoing correspondence game of `accounts` (seat 0 to move) with these times. */
      const timed = (
        accounts: [string | null, string | null],
        deadline: number | null,
        reminder: number | null = null,
        overrides: Partial<StoredGame> = {},
      ) =>
        gameOf(accounts, {
          timeControl: { type: 'correspondence', daysPerMove: 1 },
          deadlineAt: deadline === null ? null : iso(deadline),
          reminderAt: reminder === null ? null : iso(reminder),
          createdAt: iso(T0),
          updatedAt: iso(T0),
          ...overrides,
        });
      /** The game after a move by the side to move: the other seat to move, new times. */
      const moved = (
        game: StoredGame,
        deadline: number | null,
        reminder: number | null = null,
      ): StoredGame => {
        const next = advanced(game);
        return {
          ...next,
          toMove: game.toMove === 0 ? 1 : 0,
          deadlineAt: deadline === null ? null : iso(deadline),
          reminderAt: reminder === null ? null : iso(reminder),
        };
      };
      const finished = (game: StoredGame): StoredGame => ({
        ...game,
        version: game.version + 1,
        status: 'finished',
        toMove: null,
        outcome: { winner: 1, reason: 'timeout' },
      });

      it('claims games whose deadline has come, earliest first, each hidden until its lease ends', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const g1 = timed([a, b], T0 + 1000);
        const g2 = timed([a, b], T0 + 500);
        const g3 = timed([a, b], T0 + 5000);
        const none = timed([a, b], null, null, { timeControl: { type: 'unlimited' } });
        const over = finished(timed([a, b], T0));
        for (const game of [g1, g2, g3, none]) await fresh.games.create(game);
        await fresh.games.create({ ...over, version: 0 });
        expect(await fresh.clocks.claimDeadlines(T0 + 999, 10, T0 + 60_000)).toEqual([g2.id]);
        expect(await fresh.clocks.claimDeadlines(T0 + 1000, 10, T0 + 60_000)).toEqual([g1.id]);
        expect(await fresh.clocks.claimDeadlines(T0 + 1000, 10, T0 + 60_000)).toEqual([]);
        // Leases run out (ties by id); the limit caps a claim.
        expect(await fresh.clocks.claimDeadlines(T0 + 60_000, 2, T0 + 120_000)).toEqual([g3.id, g1.id]);
        expect(await fresh.clocks.claimDeadlines(T0 + 60_000, 2, T0 + 120_000)).toEqual([g2.id]);
        expect(await fresh.clocks.claimDeadlines(T0 + 60_000, 0, T0 + 120_000)).toEqual([]);
        // A write sets the entry anew: a move moves the deadline, the end of the game removes it.
        expect(await updateGame(fresh.games, moved(g1, T0 + 70_000), 0)).toEqual({ status: 'updated' });
        expect(await updateGame(fresh.games, finished(g2), 0)).toEqual({ status: 'updated' });
        expect(await fresh.clocks.claimDeadlines(T0 + 119_999, 10, T0 + 200_000)).toEqual([g1.id]);
        expect(await fresh.clocks.claimDeadlines(T0 + 120_000, 10, T0 + 200_000)).toEqual([g3.id]);
        expect(await fresh.clocks.claimDeadlines(T0 + 10 ** 9, 10, T0 + 10 ** 10)).toEqual([g1.id, g3.id]);
      });

      it('lets exactly one of 20 concurrent claims take a due game', async () => {
        const game = timed([uid('a'), uid('b')], T0);
        await fresh.games.create(game);
        const claims = await Promise.all(
          Array.from({ length: 20 }, () => fresh.clocks.claimDeadlines(T0, 10, T0 + 30_000)),
        );
        expect(claims.flat()).toEqual([game.id]);
      });

      it('indexes the game a challenge becomes, with the challenge write', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const challenge = sampleChallenge(a, b);
        await fresh.challenges.createChallenge(challenge, []);
        const game = timed([b, a], T0 + 10, T0 + 5, { id: challenge.id });
        const accepted = { ...challenge, version: 1, status: 'accepted' as const, gameId: game.id };
        expect(await fresh.challenges.updateChallenge(accepted, 0, { notices: [], game })).toBe('updated');
        expect(await fresh.clocks.claimDeadlines(T0 + 10, 10, T0 + 60_000)).toEqual([game.id]);
        expect(await fresh.clocks.claimReminders(T0 + 10, 10, T0 + 60_000)).toEqual([game.id]);
        expect((await fresh.clocks.listTurn(b, {}, 10)).items).toEqual([game]);
      });

      it('tells the earliest deadline or reminder, null when there is none', async () => {
        expect(await fresh.clocks.nextDue()).toBeNull();
        const [a, b] = [uid('a'), uid('b')];
        await fresh.games.create(timed([a, b], T0 + 900, T0 + 800));
        await fresh.games.create(timed([a, b], T0 + 700));
        expect(await fresh.clocks.nextDue()).toBe(T0 + 700);
        await fresh.clocks.claimDeadlines(T0 + 700, 10, T0 + 5000);
        expect(await fresh.clocks.nextDue()).toBe(T0 + 800);
      });

      it('records a reminder once per turn, appending its notice only then', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const game = timed([a, b], T0 + 1000, T0 + 900);
        await fresh.games.create(game);
        expect(await fresh.clocks.claimReminders(T0 + 899, 10, T0 + 5000)).toEqual([]);
        expect(await fresh.clocks.claimReminders(T0 + 900, 10, T0 + 5000)).toEqual([game.id]);
        const remind = (n: number, turn = '0') =>
          fresh.clocks.markReminded(game.id, turn, [notice([a], 'game.deadline_soon', { n })]);
        // 20 nodes at once: one records it.
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => remind(i)));
        expect(results.filter((r) => r)).toHaveLength(1);
        expect(await remind(99)).toBe(false);
        let feed = await fresh.feed.read(a, 0, 10);
        expect(feed.events.map((e) => e.type)).toEqual(['game.deadline_soon']);
        expect((await fresh.feed.read(b, 0, 10)).last).toBe(0);
        // Nothing left to claim, even after the lease; a write in the same turn does not index it again.
        expect(await fresh.clocks.claimReminders(T0 + 10_000, 10, T0 + 20_000)).toEqual([]);
        const offered = { ...game, version: 1, drawOffer: 1 as const };
        expect(await updateGame(fresh.games, offered, 0)).toEqual({ status: 'updated' });
        expect(await fresh.clocks.claimReminders(T0 + 10_000, 10, T0 + 20_000)).toEqual([]);
        // A stale turn is refused; the next turn has its own reminder.
        const next = moved(offered, T0 + 3000, T0 + 2900);
        expect(await updateGame(fresh.games, next, 1)).toEqual({ status: 'updated' });
        expect(await remind(100)).toBe(false);
        expect(await fresh.clocks.claimReminders(T0 + 2900, 10, T0 + 20_000)).toEqual([game.id]);
        expect(await remind(101, '1')).toBe(true);
        feed = await fresh.feed.read(a, 0, 10);
        expect(feed.events.map((e) => e.data)).toEqual([expect.anything(), { n: 101 }]);
        // Once over, no reminder is recorded.
        const third = moved(next, T0 + 9000, T0 + 8000);
        await updateGame(fresh.games, third, next.version);
        await updateGame(fresh.games, finished(third), third.version);
        expect(await fresh.clocks.markReminded(game.id, '2', [notice([a])])).toBe(false);
        expect(await fresh.clocks.markReminded(game.id, 'over', [notice([a])])).toBe(false);
        expect(await fresh.clocks.claimReminders(T0 + 10 ** 9, 10, T0 + 10 ** 10)).toEqual([]);
        expect((await fresh.feed.read(a, 0, 10)).last).toBe(2);
        expect(await fresh.clocks.markReminded(uid('nosuchgame'), '0', [notice([a])])).toBe(false);
      });

      it('lists the games where an account is to move by deadline (none last), ties by id, with a keyset cursor', async () => {
        const [a, b, c] = [uid('a'), uid('b'), uid('c')];
        const late = timed([a, b], T0 + 9000);
        const early = timed([a, c], T0 + 1000);
        const tie1 = timed([a, b], T0 + 5000, null, { kind: 'oware' });
        const tie2 = timed([a, c], T0 + 5000);
        const waitingLong = timed([a, b], null, null, { createdAt: iso(T0 - 5000) });
        const waitingShort = timed([a, b], null, null, { createdAt: iso(T0 - 1000) });
        const theirs = timed([b, a], T0 + 2000);
        const self = timed([a, a], T0 + 3000);
        const games = [late, early, tie1, tie2, waitingLong, waitingShort, theirs, self];
        for (const game of games) await fresh.games.create(game);
        const expected = [early, self, tie1, tie2, late, waitingLong, waitingShort].map((g) => g.id);
        const ids = (page: { items: readonly StoredGame[] }) => page.items.map((g) => g.id);
        expect(ids(await fresh.clocks.listTurn(a, {}, 100))).toEqual(expected);
        expect(ids(await fresh.clocks.listTurn(b, {}, 100))).toEqual([theirs.id]);
        expect(ids(await fresh.clocks.listTurn(a, { kind: 'oware' }, 100))).toEqual([tie1.id]);
        expect(await fresh.clocks.listTurn(uid('nobody'), {}, 10)).toEqual({ items: [], next: null });
        for (const size of [1, 2, 3]) {
          const paged: string[] = [];
          let after: TurnCursor | undefined;
          for (let pages = 0; pages < 20; pages++) {
            const page = await fresh.clocks.listTurn(a, {}, size, after);
            expect(page.items.length).toBeLessThanOrEqual(size);
            paged.push(...ids(page));
            if (page.next === null) break;
            after = page.next;
          }
          expect(paged).toEqual(expected);
        }
        // Moving takes a game off the mover's list and puts it on the other's; so does finishing.
        await updateGame(fresh.games, moved(early, T0 + 4000), 0);
        await updateGame(fresh.games, finished(self), 0);
        expect(ids(await fresh.clocks.listTurn(a, {}, 100))).toEqual(expected.slice(2));
        expect(ids(await fresh.clocks.listTurn(c, {}, 100))).toEqual([early.id]);
        // A cursor past a game that has moved on still continues after its position.
        const first = await fresh.clocks.listTurn(a, {}, 1);
        expect(ids(first)).toEqual([tie1.id]);
        await updateGame(fresh.games, moved(tie1, T0 + 8000), 0);
        expect(ids(await fresh.clocks.listTurn(a, {}, 100, first.next ?? undefined))).toEqual(
          expected.slice(3),
        );
      });

      it('pages through ties of one score longer than a store batch', async () => {
        const [a, b] = [uid('a'), uid('b')];
        const games = Array.from({ length: 45 }, () => timed([a, b], T0 + 1000));
        for (const game of games) await fresh.games.create(game);
        const paged: string[] = [];
        let after: TurnCursor | undefined;
        for (let pages = 0; pages < 100; pages++) {
          const page = await fresh.clocks.listTurn(a, {}, 7, after);
          paged.push(...page.items.map((g) => g.id));
          if (page.next === null) break;
          after = page.next;
        }
        expect(paged).toEqual(games.map((g) => g.id).sort());
      });

      it('stores vacations with compare-and-set on their version', async () => {
        const a = uid('a');
        expect(await fresh.clocks.getVacation(a)).toBeUndefined();
        const first: StoredVacation = {
          account: a,
          version: 1,
          year: 2031,
          usedDays: 3,
          windows: [{ from: iso(T0), until: iso(T0 + 3 * DAY) }],
        };
        expect(await fresh.clocks.saveVacation(first, 0)).toBe(true);
        expect(await fresh.clocks.saveVacation({ ...first, usedDays: 9 }, 0)).toBe(false);
        expect(await fresh.clocks.getVacation(a)).toEqual(first);
        const second = { ...first, version: 2, usedDays: 1 };
        const racing = await Promise.all(
          Array.from({ length: 10 }, (_, i) => fresh.clocks.saveVacation({ ...second, usedDays: i }, 1)),
        );
        expect(racing.filter((saved) => saved)).toHaveLength(1);
        expect((await fresh.clocks.getVacation(a))?.usedDays).toBe(racing.indexOf(true));
        expect(await fresh.clocks.getVacation(uid('b'))).toBeUndefined();
      });
    });

    describe('limiter', () => {
      it('allows the configured points per window, then refuses until the window resets', async () => {
        const limiter = storage.limiter({ name: uid('token'), points: 3, windowSeconds: 60 });
        const verdicts = [];
        for (let i = 0; i < 4; i++) verdicts.push(await limiter.consume('k'));
        expect(verdicts.map((v) => [v.allowed, v.limit, v.remaining])).toEqual([
          [true, 3, 2],
          [true, 3, 1],
          [true, 3, 0],
          [false, 3, 0],
        ]);
        const refused = verdicts[3];
        // A refused request is counted too: the window is past its limit.
        expect(verdicts.map((v) => v.consumed)).toEqual([1, 2, 3, 4]);
        expect(refused?.resetMs).toBeGreaterThan(0);
        expect(refused?.resetMs).toBeLessThanOrEqual(60_000);
      });

      it('takes several points at once when asked', async () => {
        const limiter = storage.limiter({ name: uid('token'), points: 5, windowSeconds: 60 });
        expect((await limiter.consume('k', 3)).remaining).toBe(2);
        const refused = await limiter.consume('k', 3);
        expect(refused.allowed).toBe(false);
        expect((await limiter.consume('k', 1)).allowed).toBe(false);
      });

      it('keeps keys and limiters apart', async () => {
        const name = uid('ip');
        const limiter = storage.limiter({ name, points: 1, windowSeconds: 60 });
        expect((await limiter.consume('k1')).allowed).toBe(true);
        expect((await limiter.consume('k1')).allowed).toBe(false);
        expect((await limiter.consume('k2')).allowed).toBe(true);
        const other = storage.limiter({ name: uid('ip'), points: 1, windowSeconds: 60 });
        expect((await other.consume('k1')).allowed).toBe(true);
      });
    });

    describeRatingContract(() => storage);
  });
}

export function sampleWebhook(account: string, overrides: Partial<StoredWebhook> = {}): StoredWebhook {
  return {
    id: uid('wh'),
    account,
    url: 'https://hooks.example.test/boardhost',
    events: null,
    secret: 'whsec_0123456789abcdef',
    createdBy: 'tok1',
    createdAt: iso(Date.now()),
    ...overrides,
  };
}

export function sampleAttempt(overrides: Partial<NewDeliveryAttempt> = {}): NewDeliveryAttempt {
  return {
    deliveryId: uid('d'),
    seq: 1,
    epoch: null,
    lastSeq: null,
    reason: null,
    type: 'game.moved',
    attempt: 1,
    at: iso(Date.now()),
    durationMs: 12,
    statusCode: 200,
    error: null,
    outcome: 'delivered',
    nextAttemptAt: null,
    redelivery: false,
    ...overrides,
  };
}

/** Webhook endpoints, their claims and logs (every endpoint made here is deleted after each test). */
function describeWebhookContract(store: () => Storage): void {
  const made: WebhookRef[] = [];
  let storage: Storage;
  beforeEach(() => {
    storage = store();
  });
  afterEach(async () => {
    await Promise.all(made.splice(0).map((ref) => storage.webhooks.deleteWebhook(ref)));
  });
  const LEASE = 30 * SECOND;

  /** A stored endpoint of `account` (at most 10 per account). */
  async function hook(account: string, overrides: Partial<StoredWebhook> = {}) {
    const webhook = sampleWebhook(account, overrides);
    const state = await storage.webhooks.createWebhook(webhook, 10);
    if (!state) throw new Error('limit reached');
    made.push(webhook);
    return webhook;
  }
  /** The claims of our own endpoints among those due at `now`. */
  async function claim(now: number, ids: readonly string[], limit = 100): Promise<WebhookClaim[]> {
    const claims = await storage.webhooks.claimDue(iso(now), limit, LEASE);
    return claims.filter((c) => ids.includes(c.webhook.id));
  }
  const event = (account: string, at: number, type: FeedEventType = 'game.moved') =>
    storage.feed.append([notice([account], type, {}, iso(at))]);
  /** The account's feed epoch (endpoint cursors name it). */
  const epochOf = async (account: string) => (await storage.feed.read(account, 0, 0)).epoch;

  it('starts an endpoint at its account’s newest seq; reads, lists oldest first, deletes with its log', async () => {
    const [a, b] = [uid('a'), uid('b')];
    const t = Date.now();
    await event(a, t);
    await event(a, t);
    const w1 = sampleWebhook(a, { createdAt: iso(t), events: ['game.moved', 'game.finished'] });
    const e = await epochOf(a);
    expect(await storage.webhooks.createWebhook(w1, 10)).toEqual({ cursor: 2, epoch: e, pending: null });
    made.push(w1);
    const w2 = await hook(a, { createdAt: iso(t + SECOND) });
    const w3 = await hook(b);
    expect(await storage.webhooks.getWebhook(w1)).toEqual({
      webhook: w1,
      state: { cursor: 2, epoch: e, pending: null },
    });
    expect(await storage.webhooks.getWebhook(w3)).toEqual({
      webhook: w3,
      state: { cursor: 0, epoch: await epochOf(b), pending: null },
    });
    expect((await storage.webhooks.listWebhooks(a)).map((r) => r.webhook)).toEqual([w1, w2]);
    expect(await storage.webhooks.listWebhooks(uid('nobody'))).toEqual([]);
    expect(await storage.webhooks.logAttempt(w1, sampleAttempt())).toMatchObject({ n: 1 });
    expect(await storage.webhooks.deleteWebhook(w1)).toBe(true);
    expect(await storage.webhooks.deleteWebhook(w1)).toBe(false);
    expect(await storage.webhooks.getWebhook(w1)).toBeUndefined();
    expect(await storage.webhooks.deliveryLog(w1, 10)).toEqual({ items: [], next: null });
    expect((await storage.webhooks.listWebhooks(a)).map((r) => r.webhook.id)).toEqual([w2.id]);
    expect(await storage.webhooks.getWebhook({ id: uid('wh'), account: a })).toBeUndefined();
  });

  it('finds no endpoint named with another account than its own: no read, log, claim end or delete', async () => {
    const a = uid('a');
    // Another account, and one that Redis keeps in the same shard (where the endpoint's keys are).
    let near = uid('b');
    while (shardOf(near) !== shardOf(a)) near = uid('b');
    const w = await hook(a);
    const e = await epochOf(a);
    const t = Date.now();
    await event(a, t);
    const [c] = await claim(t, [w.id]);
    const done = { cursor: 1, epoch: e, pending: null };
    const d1 = sampleAttempt();
    expect(await storage.webhooks.checkpoint(w, c!.lease, done, [d1], iso(t), LEASE)).toBe(true);
    for (const foreign of [
      { id: w.id, account: uid('b') },
      { id: w.id, account: near },
    ]) {
      expect(await storage.webhooks.getWebhook(foreign)).toBeUndefined();
      expect(await storage.webhooks.deliveryLog(foreign, 10)).toEqual({ items: [], next: null });
      expect(await storage.webhooks.findDelivery(foreign, d1.deliveryId)).toBeUndefined();
      expect(await storage.webhooks.logAttempt(foreign, sampleAttempt())).toBeUndefined();
      expect(await storage.webhooks.checkpoint(foreign, c!.lease, done, [], iso(t), LEASE)).toBe(false);
      expect(await storage.webhooks.release(foreign, c!.lease, done, [], iso(t))).toBe(false);
      expect(await storage.webhooks.deleteWebhook(foreign)).toBe(false);
    }
    expect(await storage.webhooks.getWebhook(w)).toEqual({ webhook: w, state: done });
    expect(await storage.webhooks.findDelivery(w, d1.deliveryId)).toEqual({ n: 1, ...d1 });
    expect(await storage.webhooks.release(w, c!.lease, done, [], iso(t))).toBe(true);
  });

  it('refuses an endpoint beyond the account’s limit, storing nothing', async () => {
    const [a, b] = [uid('a'), uid('b')];
    const first = await hook(a);
    await hook(a);
    const third = sampleWebhook(a);
    expect(await storage.webhooks.createWebhook(third, 2)).toBeUndefined();
    expect(await storage.webhooks.getWebhook(third)).toBeUndefined();
    expect(await storage.webhooks.listWebhooks(a)).toHaveLength(2);
    await hook(b);
    await storage.webhooks.deleteWebhook(first);
    expect(await storage.webhooks.createWebhook(third, 2)).toEqual({
      cursor: 0,
      epoch: await epochOf(a),
      pending: null,
    });
    made.push(third);
  });

  it('claims an endpoint once its feed moves past its cursor, one claim per lease', async () => {
    const a = uid('a');
    const w = await hook(a);
    const e = await epochOf(a);
    const t = Date.now();
    expect(await claim(t, [w.id])).toEqual([]);
    await event(a, t);
    const [first, ...none] = await claim(t, [w.id]);
    expect(none).toEqual([]);
    expect(first).toMatchObject({ webhook: w, state: { cursor: 0, epoch: e, pending: null } });
    expect(await claim(t + SECOND, [w.id])).toEqual([]);
    // The claimer died: after the lease another claim gets it, and the first lease is void.
    const [second] = await claim(t + LEASE, [w.id]);
    expect(second?.lease).toEqual(expect.any(String));
    expect(second?.lease).not.toBe(first?.lease);
    const done = { cursor: 1, epoch: e, pending: null };
    expect(await storage.webhooks.release(w, first!.lease, done, [sampleAttempt()], iso(t))).toBe(false);
    expect(await storage.webhooks.deliveryLog(w, 10)).toEqual({ items: [], next: null });
    expect(await storage.webhooks.release(w, second!.lease, done, [], iso(t + LEASE))).toBe(true);
    expect(await storage.webhooks.release(w, second!.lease, done, [], iso(t + LEASE))).toBe(false);
    expect(await claim(t + 2 * LEASE, [w.id])).toEqual([]);
    expect(await storage.webhooks.getWebhook(w)).toEqual({ webhook: w, state: done });
  });

  it('makes endpoints due through the notices of game and challenge writes too', async () => {
    const [a, b] = [uid('a'), uid('b')];
    const [wa, wb] = [await hook(a), await hook(b)];
    const game = gameOf([a, null]);
    const t = Date.now();
    await storage.games.create(game, [notice([a], 'game.started', {}, iso(t))]);
    expect((await claim(t, [wa.id, wb.id])).map((c) => c.webhook.id)).toEqual([wa.id]);
    await storage.challenges.createChallenge(sampleChallenge(a, b), [
      notice([b], 'challenge.received', {}, iso(t)),
    ]);
    expect((await claim(t, [wa.id, wb.id])).map((c) => c.webhook.id)).toEqual([wb.id]);
  });

  it('keeps a pending retry until its next attempt; a cursor behind the feed is due at once', async () => {
    const a = uid('a');
    const w = await hook(a);
    const e = await epochOf(a);
    const t = Date.now();
    await event(a, t);
    await event(a, t);
    const [c1] = await claim(t, [w.id]);
    const pending = { seq: 1, deliveryId: uid('d'), attempts: 1, nextAttemptAt: iso(t + 10 * SECOND) };
    expect(await storage.webhooks.release(w, c1!.lease, { cursor: 0, epoch: e, pending }, [], iso(t))).toBe(
      true,
    );
    expect(await claim(t + 9 * SECOND, [w.id])).toEqual([]);
    const [c2] = await claim(t + 10 * SECOND, [w.id]);
    expect(c2?.state).toEqual({ cursor: 0, epoch: e, pending });
    const now = iso(t + 10 * SECOND);
    expect(
      await storage.webhooks.release(w, c2!.lease, { cursor: 1, epoch: e, pending: null }, [], now),
    ).toBe(true);
    const [c3] = await claim(t + 10 * SECOND, [w.id]);
    expect(c3?.state).toEqual({ cursor: 1, epoch: e, pending: null });
    expect(
      await storage.webhooks.release(w, c3!.lease, { cursor: 2, epoch: e, pending: null }, [], now),
    ).toBe(true);
    expect(await claim(t + DAY, [w.id])).toEqual([]);
  });

  it('sees events appended during a claim when released; a retry keeps its time whatever is appended', async () => {
    const a = uid('a');
    const w = await hook(a);
    const e = await epochOf(a);
    const t = Date.now();
    await event(a, t);
    const [c1] = await claim(t, [w.id]);
    await event(a, t + SECOND);
    expect(
      await storage.webhooks.release(w, c1!.lease, { cursor: 1, epoch: e, pending: null }, [], iso(t)),
    ).toBe(true);
    const [c2] = await claim(t + SECOND, [w.id]);
    expect(c2?.state.cursor).toBe(1);
    const pending = { seq: 2, deliveryId: uid('d'), attempts: 1, nextAttemptAt: iso(t + 60 * SECOND) };
    await storage.webhooks.release(w, c2!.lease, { cursor: 1, epoch: e, pending }, [], iso(t + SECOND));
    await event(a, t + 2 * SECOND);
    expect(await claim(t + 2 * SECOND, [w.id])).toEqual([]);
    expect(await claim(t + 59 * SECOND, [w.id])).toEqual([]);
    expect((await claim(t + 60 * SECOND, [w.id])).map((c) => c.state.pending)).toEqual([pending]);
  });

  it('saves progress at a checkpoint and extends the lease, keeping the claim; a lost lease saves nothing', async () => {
    const a = uid('a');
    const w = await hook(a);
    const e = await epochOf(a);
    const t = Date.now();
    for (let i = 0; i < 3; i++) await event(a, t);
    const [c] = await claim(t, [w.id]);
    const d1 = sampleAttempt({ seq: 1, epoch: e });
    const at = (ms: number) => iso(t + ms);
    expect(
      await storage.webhooks.checkpoint(
        w,
        c!.lease,
        { cursor: 1, epoch: e, pending: null },
        [d1],
        at(20 * SECOND),
        LEASE,
      ),
    ).toBe(true);
    expect((await storage.webhooks.getWebhook(w))?.state).toEqual({ cursor: 1, epoch: e, pending: null });
    expect((await storage.webhooks.deliveryLog(w, 10)).items).toEqual([{ n: 1, ...d1 }]);
    // The lease now ends at 20 s + LEASE, not at LEASE: nobody else claims it before.
    expect(await claim(t + LEASE, [w.id])).toEqual([]);
    expect(await claim(t + 20 * SECOND + LEASE - 1, [w.id])).toEqual([]);
    const d2 = sampleAttempt({ seq: 2, epoch: e });
    expect(
      await storage.webhooks.release(
        w,
        c!.lease,
        { cursor: 2, epoch: e, pending: null },
        [d2],
        at(21 * SECOND),
      ),
    ).toBe(true);
    // Released behind its feed: due again at once, and a new claim voids the old lease.
    const [again] = await claim(t + 21 * SECOND, [w.id]);
    expect(again?.state).toEqual({ cursor: 2, epoch: e, pending: null });
    expect(
      await storage.webhooks.checkpoint(
        w,
        c!.lease,
        { cursor: 3, epoch: e, pending: null },
        [sampleAttempt()],
        at(22 * SECOND),
        LEASE,
      ),
    ).toBe(false);
    expect((await storage.webhooks.getWebhook(w))?.state.cursor).toBe(2);
    expect((await storage.webhooks.deliveryLog(w, 10)).items.map((i) => i.n)).toEqual([2, 1]);
  });

  it('never gives one endpoint to two of several concurrent claimers', async () => {
    const t = Date.now();
    const hooks = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const account = uid('a');
        const w = await hook(account);
        await event(account, t);
        return w.id;
      }),
    );
    const rounds = await Promise.all(Array.from({ length: 5 }, () => claim(t, hooks, 6)));
    const claimed = rounds.flat().map((c) => c.webhook.id);
    expect(rounds.every((r) => r.length <= 6)).toBe(true);
    expect(claimed).toHaveLength(20);
    expect(new Set(claimed)).toEqual(new Set(hooks));
    expect(await claim(t, hooks)).toEqual([]);
  });

  it('forgets a deleted endpoint: no release, no claim', async () => {
    const a = uid('a');
    const w = await hook(a);
    const e = await epochOf(a);
    const t = Date.now();
    await event(a, t);
    const [c] = await claim(t, [w.id]);
    expect(await storage.webhooks.deleteWebhook(w)).toBe(true);
    const done = { cursor: 1, epoch: e, pending: null };
    expect(await storage.webhooks.release(w, c!.lease, done, [sampleAttempt()], iso(t))).toBe(false);
    await event(a, t);
    expect(await claim(t + 2 * LEASE, [w.id])).toEqual([]);
    expect(await storage.webhooks.getWebhook(w)).toBeUndefined();
    expect(await storage.webhooks.logAttempt(w, sampleAttempt())).toBeUndefined();
  });

  it('logs attempts newest first with a cursor, and finds the newest attempt of a delivery', async () => {
    const a = uid('a');
    const [w, other] = [await hook(a), await hook(a)];
    const e = await epochOf(a);
    const t = Date.now();
    await event(a, t);
    const [c] = await claim(t, [w.id]);
    const d1 = uid('d');
    const a1 = sampleAttempt({
      deliveryId: d1,
      statusCode: 503,
      error: 'HTTP 503',
      outcome: 'retrying',
      nextAttemptAt: iso(t + 10 * SECOND),
    });
    const a2 = sampleAttempt({
      deliveryId: d1,
      attempt: 2,
      statusCode: null,
      error: 'timed out',
      outcome: 'failed',
    });
    expect(
      await storage.webhooks.release(w, c!.lease, { cursor: 1, epoch: e, pending: null }, [a1, a2], iso(t)),
    ).toBe(true);
    const a3 = sampleAttempt({ redelivery: true, type: 'game.finished' });
    expect(await storage.webhooks.logAttempt(w, a3)).toEqual({ n: 3, ...a3 });
    const page = await storage.webhooks.deliveryLog(w, 2);
    expect(page).toEqual({
      items: [
        { n: 3, ...a3 },
        { n: 2, ...a2 },
      ],
      next: 2,
    });
    expect(await storage.webhooks.deliveryLog(w, 2, 2)).toEqual({ items: [{ n: 1, ...a1 }], next: null });
    expect(await storage.webhooks.deliveryLog(w, 3)).toEqual({
      items: [
        { n: 3, ...a3 },
        { n: 2, ...a2 },
        { n: 1, ...a1 },
      ],
      next: null,
    });
    expect(await storage.webhooks.findDelivery(w, d1)).toEqual({ n: 2, ...a2 });
    expect(await storage.webhooks.findDelivery(w, a3.deliveryId)).toEqual({ n: 3, ...a3 });
    expect(await storage.webhooks.findDelivery(w, uid('d'))).toBeUndefined();
    expect(await storage.webhooks.findDelivery(other, d1)).toBeUndefined();
    expect(await storage.webhooks.deliveryLog(other, 10)).toEqual({ items: [], next: null });
  });
}
