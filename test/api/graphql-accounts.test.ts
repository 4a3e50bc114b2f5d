// Accounts, API tokens, challenges, seeks, abort and draw claims, and the events page over GraphQL.
import { createApp, type App } from '../../src/app';
import { GameError } from '../../src/service/errors';
import { createMemoryStorage } from '../../src/store/memory';
import type { EventFeed, FeedEvent, Storage } from '../../src/store/store';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { failure, ok, subscribeEvents, subscriptionFailure } from '../support/graphql';

const harness = appHarness();
afterAll(() => harness.stopAll());

const STORES: StoreKind[] = (process.env.GQL_STORES ?? 'redis,memory').split(',') as StoreKind[];

const ACCOUNT = 'id username kind createdAt bot { kinds timeControls options maxGames }';
const TOKEN = 'id label scopes createdAt revokedAt';
const CHALLENGE = `id version status kind options challenger destination players starts accepted
  declineReason closedBy gameId expiresAt timeControl { type initialSeconds incrementSeconds daysPerMove }`;
const GAME =
  'id kind status version toMove legalMoves seats { seat account } result { winner reason } moves { notation }';

const CREATE_ACCOUNT = `mutation ($username: String!, $kind: String) {
  createAccount(username: $username, kind: $kind) { account { ${ACCOUNT} } token { ${TOKEN} token } } }`;
const CREATE_CHALLENGE = `mutation ($input: CreateChallengeInput!) { createChallenge(input: $input) { ${CHALLENGE} } }`;
const ACCEPT = `mutation ($id: ID!) { acceptChallenge(id: $id) { ${CHALLENGE} } }`;
const DECLINE = `mutation ($id: ID!, $reason: String) { declineChallenge(id: $id, reason: $reason) { ${CHALLENGE} } }`;
const CANCEL = `mutation ($id: ID!) { cancelChallenge(id: $id) { ${CHALLENGE} } }`;
const EVENTS = `query ($after: Int!, $limit: Int) { events(after: $after, limit: $limit) { next last events { seq type at data } } }`;
const MOVE = `mutation ($id: ID!, $move: String!) { submitMove(id: $id, move: $move) { ${GAME} } }`;
const GAME_QUERY = `query ($id: ID!) { game(id: $id) { ${GAME} } }`;

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(STORES)('GraphQL accounts on %s', (store) => {
  let run: Running;
  let url: string;
  let alice: TestAccount;
  let bob: TestAccount;
  beforeAll(async () => {
    run = await harness.start(store);
    url = run.url;
    alice = await signUp(run.app, 'alice', 'human');
    bob = await signUp(run.app, 'bob', 'bot');
  });

  /** A direct challenge from `from` to `to` that `to` accepts: the game, seat 0 = `from`. */
  async function startGame(from: TestAccount, to: TestAccount, kind: string, options = {}) {
    const { createChallenge } = await ok(url, from.token, CREATE_CHALLENGE, {
      input: { to: to.username, kind, options, starts: 'challenger' },
    });
    const { acceptChallenge } = await ok(url, to.token, ACCEPT, { id: createChallenge.id });
    return (await ok(url, from.token, GAME_QUERY, { id: acceptChallenge.gameId })).game;
  }

  describe('accounts and tokens', () => {
    it('signs up with createAccount, whose token answers `me`; usernames are unique ignoring case', async () => {
      const username = unique('Carol');
      const { createAccount } = await ok(url, undefined, CREATE_ACCOUNT, { username, kind: 'bot' });
      expect(createAccount.account).toMatchObject({
        id: username.toLowerCase(),
        username,
        kind: 'bot',
        bot: null,
      });
      expect(createAccount.token).toMatchObject({
        label: 'first token',
        scopes: ['game:read', 'bot:play', 'challenge:write'],
        revokedAt: null,
      });
      expect(createAccount.token.token).toMatch(/^bhp_/);
      const { me } = await ok(url, createAccount.token.token, `{ me { ${ACCOUNT} } }`);
      expect(me).toEqual(createAccount.account);
      const { account } = await ok(
        url,
        undefined,
        `query ($u: String!) { account(username: $u) { id kind } }`,
        {
          u: username.toUpperCase(),
        },
      );
      expect(account).toEqual({ id: username.toLowerCase(), kind: 'bot' });

      expect((await failure(url, undefined, CREATE_ACCOUNT, { username: username.toUpperCase() })).code).toBe(
        'USERNAME_TAKEN',
      );
      expect((await failure(url, undefined, CREATE_ACCOUNT, { username: 'a b' })).code).toBe('INVALID_INPUT');
      expect(
        (await failure(url, undefined, CREATE_ACCOUNT, { username: unique('x'), kind: 'robot' })).code,
      ).toBe('INVALID_INPUT');
      expect((await failure(url, undefined, '{ account(username: "nobody-here") { id } }')).code).toBe(
        'ACCOUNT_NOT_FOUND',
      );
    });

    it('answers `me` without a token, or with a seat token, with UNAUTHENTICATED', async () => {
      expect((await failure(url, undefined, '{ me { id } }')).code).toBe('UNAUTHENTICATED');
      expect((await failure(url, 'bhs_some-seat-token', '{ me { id } }')).code).toBe('UNAUTHENTICATED');
      expect((await failure(url, 'bhp_forged', '{ me { id } }')).code).toBe('UNAUTHENTICATED');
    });

    it('creates, lists and revokes tokens; a revoked token is refused at once', async () => {
      const dave = await signUp(run.app, 'dave', 'human');
      const { createToken } = await ok(
        url,
        dave.token,
        `mutation { createToken(label: "reader", scopes: ["game:read"]) { ${TOKEN} token } }`,
      );
      expect(createToken).toMatchObject({ label: 'reader', scopes: ['game:read'], revokedAt: null });
      expect(createToken.token).toMatch(/^bhp_/);
      expect((await ok(url, createToken.token, '{ me { id } }')).me.id).toBe(dave.id);

      const { myTokens } = await ok(url, dave.token, `{ myTokens { ${TOKEN} } }`);
      expect(myTokens.map((t: { label: string }) => t.label)).toEqual(['first token', 'reader']);
      // The schema has no way to read a secret back.
      expect((await failure(url, dave.token, '{ myTokens { token } }')).code).toBe(
        'GRAPHQL_VALIDATION_FAILED',
      );

      const { revokeToken } = await ok(
        url,
        dave.token,
        `mutation ($id: ID!) { revokeToken(id: $id) { ${TOKEN} } }`,
        {
          id: createToken.id,
        },
      );
      expect(revokeToken.id).toBe(createToken.id);
      expect(revokeToken.revokedAt).toEqual(expect.any(String));
      const refused = await failure(url, createToken.token, '{ me { id } }');
      expect(refused.code).toBe('UNAUTHENTICATED');
      expect(refused.message).toMatch(/revoked/);
      const listed = (await ok(url, dave.token, `{ myTokens { id revokedAt } }`)).myTokens;
      expect(listed.find((t: { id: string }) => t.id === createToken.id).revokedAt).toBe(
        revokeToken.revokedAt,
      );
      expect(
        (await failure(url, dave.token, 'mutation { revokeToken(id: "nosuchtoken") { id } }')).code,
      ).toBe('NOT_FOUND');
    });

    it('refuses what the token’s scopes do not cover with MISSING_SCOPE and the scopes that would do', async () => {
      const erin = await signUp(run.app, 'erin', 'human');
      const { createToken } = await ok(
        url,
        erin.token,
        'mutation { createToken(label: "read only", scopes: ["game:read"]) { token } }',
      );
      const readOnly = createToken.token as string;
      const noWrite = await failure(url, readOnly, CREATE_CHALLENGE, {
        input: { to: bob.username, kind: 'kalah' },
      });
      expect(noWrite).toMatchObject({
        code: 'MISSING_SCOPE',
        required: ['challenge:write'],
        granted: ['game:read'],
      });
      // No token can widen itself.
      const widen = await failure(url, readOnly, 'mutation { createToken(scopes: ["game:play"]) { id } }');
      expect(widen).toMatchObject({ code: 'MISSING_SCOPE', required: ['game:play'] });
      // A person's token has no bot:play.
      const policy = await failure(
        url,
        erin.token,
        'mutation { setBotPolicy(input: { maxGames: 2 }) { id } }',
      );
      expect(policy).toMatchObject({ code: 'MISSING_SCOPE', required: ['bot:play'] });
      // Playing in an account game needs game:play (people) — a read-only token holds the seat but may not move.
      const game = await startGame(erin, bob, 'oware');
      const move = await failure(url, readOnly, MOVE, { id: game.id, move: game.legalMoves[0] });
      expect(move).toMatchObject({ code: 'MISSING_SCOPE', required: ['game:play'] });
      expect((await ok(url, undefined, GAME_QUERY, { id: game.id })).game.version).toBe(0);
    });

    it('lets a bot declare what it accepts and declines other challenges on its behalf', async () => {
      const picky = await signUp(run.app, 'picky', 'bot');
      const { setBotPolicy } = await ok(
        url,
        picky.token,
        `mutation { setBotPolicy(input: { kinds: ["kalah"], options: { kalah: { seeds: [3] } }, maxGames: 5 }) { ${ACCOUNT} } }`,
      );
      expect(setBotPolicy.bot).toEqual({
        kinds: ['kalah'],
        timeControls: ['unlimited', 'realtime', 'correspondence'],
        options: { kalah: { seeds: [3] } },
        maxGames: 5,
      });
      const challenge = (input: Record<string, unknown>) =>
        ok(url, alice.token, CREATE_CHALLENGE, { input: { to: picky.username, ...input } });
      expect((await challenge({ kind: 'oware' })).createChallenge).toMatchObject({
        status: 'declined',
        declineReason: 'kind',
        closedBy: picky.id,
      });
      expect((await challenge({ kind: 'kalah', options: { seeds: 4 } })).createChallenge.declineReason).toBe(
        'options',
      );
      expect((await challenge({ kind: 'kalah', options: { seeds: 3 } })).createChallenge.status).toBe('open');
      const bad = await failure(
        url,
        picky.token,
        'mutation { setBotPolicy(input: { kinds: ["go"] }) { id } }',
      );
      expect(bad.code).toBe('UNKNOWN_GAME_KIND');
    });
  });

  describe('challenges', () => {
    it('creates a direct challenge that the destination sees, lists and accepts into a game', async () => {
      const { createChallenge } = await ok(url, alice.token, CREATE_CHALLENGE, {
        input: {
          to: bob.username,
          kind: 'kalah',
          options: { seeds: 3 },
          timeControl: { type: 'realtime', initialSeconds: 300, incrementSeconds: 5 },
          starts: 'destination',
        },
      });
      expect(createChallenge).toMatchObject({
        version: 0,
        status: 'open',
        kind: 'kalah',
        options: { seeds: 3, houses: 6 },
        challenger: alice.id,
        destination: bob.id,
        players: null,
        starts: 'destination',
        accepted: [],
        gameId: null,
        timeControl: { type: 'realtime', initialSeconds: 300, incrementSeconds: 5, daysPerMove: null },
      });
      const byId = await ok(url, undefined, `query ($id: ID!) { challenge(id: $id) { ${CHALLENGE} } }`, {
        id: createChallenge.id,
      });
      expect(byId.challenge).toEqual(createChallenge);
      const bobs = (await ok(url, bob.token, '{ myChallenges { id } }')).myChallenges;
      expect(bobs.map((c: { id: string }) => c.id)).toContain(createChallenge.id);

      const { acceptChallenge } = await ok(url, bob.token, ACCEPT, { id: createChallenge.id });
      expect(acceptChallenge).toMatchObject({ status: 'accepted', accepted: [bob.id], version: 1 });
      expect(acceptChallenge.gameId).toEqual(expect.any(String));
      const { game } = await ok(url, bob.token, GAME_QUERY, { id: acceptChallenge.gameId });
      expect(game).toMatchObject({ kind: 'kalah', status: 'ongoing', version: 0, toMove: 0 });
      // starts: destination — the challenged account moves first.
      expect(game.seats).toEqual([
        { seat: 0, account: bob.id },
        { seat: 1, account: alice.id },
      ]);
      const mine = await ok(url, undefined, 'query ($a: String!) { games(account: $a) { items { id } } }', {
        a: alice.username.toUpperCase(),
      });
      expect(mine.games.items.map((g: { id: string }) => g.id)).toContain(game.id);
      expect((await ok(url, bob.token, '{ myChallenges { id } }')).myChallenges).not.toContainEqual({
        id: createChallenge.id,
      });
      // Accepted once: every later change is refused with CHALLENGE_CLOSED.
      const again = await failure(url, alice.token, CANCEL, { id: createChallenge.id });
      expect(again).toMatchObject({ code: 'CHALLENGE_CLOSED', challengeStatus: 'accepted', gameId: game.id });
    });

    it('declines with a reason; a closed challenge answers CHALLENGE_CLOSED with its status', async () => {
      const { createChallenge } = await ok(url, alice.token, CREATE_CHALLENGE, {
        input: { to: bob.username, kind: 'oware' },
      });
      const stranger = await signUp(run.app, 'stranger', 'bot');
      expect((await failure(url, stranger.token, ACCEPT, { id: createChallenge.id })).code).toBe('FORBIDDEN');
      expect((await failure(url, alice.token, DECLINE, { id: createChallenge.id })).code).toBe('FORBIDDEN');
      expect(
        (await failure(url, bob.token, DECLINE, { id: createChallenge.id, reason: 'because' })).code,
      ).toBe('INVALID_INPUT');
      const { declineChallenge } = await ok(url, bob.token, DECLINE, {
        id: createChallenge.id,
        reason: 'later',
      });
      expect(declineChallenge).toMatchObject({
        status: 'declined',
        declineReason: 'later',
        closedBy: bob.id,
      });
      const closed = await failure(url, bob.token, ACCEPT, { id: createChallenge.id });
      expect(closed).toMatchObject({
        code: 'CHALLENGE_CLOSED',
        challengeStatus: 'declined',
        declineReason: 'later',
      });
    });

    it('lets only the challenger cancel; then accepting is CHALLENGE_CLOSED', async () => {
      const { createChallenge } = await ok(url, alice.token, CREATE_CHALLENGE, {
        input: { to: bob.username, kind: 'congo', timeControl: { type: 'correspondence', daysPerMove: 3 } },
      });
      expect(createChallenge.timeControl).toEqual({
        type: 'correspondence',
        initialSeconds: null,
        incrementSeconds: null,
        daysPerMove: 3,
      });
      expect((await failure(url, bob.token, CANCEL, { id: createChallenge.id })).code).toBe('FORBIDDEN');
      const { cancelChallenge } = await ok(url, alice.token, CANCEL, { id: createChallenge.id });
      expect(cancelChallenge).toMatchObject({ status: 'canceled', closedBy: alice.id, version: 1 });
      expect(await failure(url, bob.token, ACCEPT, { id: createChallenge.id })).toMatchObject({
        code: 'CHALLENGE_CLOSED',
        challengeStatus: 'canceled',
      });
    });

    it('turns an open challenge into a game once two accounts accept', async () => {
      const carol = await signUp(run.app, 'carol', 'human');
      const { createChallenge } = await ok(url, alice.token, CREATE_CHALLENGE, {
        input: { kind: 'kalah', players: [bob.username, carol.username], starts: 'listed' },
      });
      expect(createChallenge).toMatchObject({
        destination: null,
        players: [bob.id, carol.id],
        starts: 'listed',
      });
      expect((await failure(url, alice.token, ACCEPT, { id: createChallenge.id })).code).toBe('FORBIDDEN');
      const first = (await ok(url, carol.token, ACCEPT, { id: createChallenge.id })).acceptChallenge;
      expect(first).toMatchObject({ status: 'open', accepted: [carol.id], gameId: null });
      const second = (await ok(url, bob.token, ACCEPT, { id: createChallenge.id })).acceptChallenge;
      expect(second).toMatchObject({ status: 'accepted', accepted: [carol.id, bob.id] });
      const { game } = await ok(url, undefined, GAME_QUERY, { id: second.gameId });
      expect(game.seats.map((s: { account: string }) => s.account)).toEqual([bob.id, carol.id]);
    });

    it('answers malformed, unknown and invalid challenges with their codes', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ to: 'nobody-at-all', kind: 'kalah' }, 'ACCOUNT_NOT_FOUND'],
        [{ to: alice.username, kind: 'kalah' }, 'INVALID_INPUT'], // oneself
        [{ to: bob.username, kind: 'go' }, 'UNKNOWN_GAME_KIND'],
        [{ to: bob.username, kind: 'kalah', options: { seeds: 99 } }, 'INVALID_INPUT'],
        [{ to: bob.username, kind: 'kalah', timeControl: { type: 'realtime' } }, 'INVALID_INPUT'],
        [{ to: bob.username, kind: 'kalah', timeControl: { type: 'blitz' } }, 'INVALID_INPUT'],
        [{ to: bob.username, kind: 'kalah', starts: 'listed' }, 'INVALID_INPUT'],
        [{ to: bob.username, kind: 'kalah', expiresInSeconds: 1 }, 'INVALID_INPUT'],
      ];
      for (const [input, code] of cases) {
        expect([input, (await failure(url, alice.token, CREATE_CHALLENGE, { input })).code]).toEqual([
          input,
          code,
        ]);
      }
      expect((await failure(url, undefined, CREATE_CHALLENGE, { input: { kind: 'kalah' } })).code).toBe(
        'UNAUTHENTICATED',
      );
      expect((await failure(url, alice.token, ACCEPT, { id: 'bad id' })).code).toBe('INVALID_INPUT');
      expect((await failure(url, alice.token, ACCEPT, { id: 'AAAAAAAAAAAA' })).code).toBe(
        'CHALLENGE_NOT_FOUND',
      );
    });
  });

  describe('seeks', () => {
    const SEEK = `mutation ($input: CreateSeekInput!) { createSeek(input: $input) {
      id account kind options status createdAt expiresAt timeControl { type initialSeconds } game { ${GAME} } } }`;
    const CANCEL_SEEK = 'mutation ($id: ID!) { cancelSeek(id: $id) }';

    it('waits, cancels, and matches two compatible seeks into a game', async () => {
      const [p, q] = [await signUp(run.app, 'p', 'bot'), await signUp(run.app, 'q', 'bot')];
      // A unique pool, so that seeks of other tests cannot match these.
      const pool = {
        kind: 'oware',
        timeControl: { type: 'realtime', initialSeconds: 10 + (Date.now() % 9000) },
      };
      const waiting = (await ok(url, p.token, SEEK, { input: pool })).createSeek;
      expect(waiting).toMatchObject({ account: p.id, kind: 'oware', status: 'waiting', game: null });
      expect((await failure(url, q.token, CANCEL_SEEK, { id: waiting.id })).code).toBe('FORBIDDEN');
      expect((await ok(url, p.token, CANCEL_SEEK, { id: waiting.id })).cancelSeek).toBe(true);
      expect((await failure(url, p.token, CANCEL_SEEK, { id: waiting.id })).code).toBe('SEEK_NOT_FOUND');

      const again = (await ok(url, p.token, SEEK, { input: pool })).createSeek;
      expect(again.status).toBe('waiting');
      // Own seeks never match each other; a different pool does not match either.
      expect((await ok(url, p.token, SEEK, { input: pool })).createSeek.status).toBe('waiting');
      const other = { ...pool, options: { seeds: 5 } };
      expect((await ok(url, q.token, SEEK, { input: other })).createSeek.status).toBe('waiting');
      const matched = (await ok(url, q.token, SEEK, { input: pool })).createSeek;
      expect(matched.status).toBe('matched');
      expect(matched.game).toMatchObject({ kind: 'oware', status: 'ongoing', version: 0 });
      expect(matched.game.seats.map((s: { account: string }) => s.account).sort()).toEqual(
        [p.id, q.id].sort(),
      );
      expect((await ok(url, undefined, GAME_QUERY, { id: matched.game.id })).game).toEqual(matched.game);
    });
  });

  describe('abort and draw claims', () => {
    it('lets either player abort before both have moved, then answers TOO_LATE_TO_ABORT', async () => {
      const early = await startGame(alice, bob, 'oware');
      const first = (await ok(url, alice.token, MOVE, { id: early.id, move: early.legalMoves[0] }))
        .submitMove;
      expect(first.toMove).toBe(1);
      const aborted = await ok(
        url,
        bob.token,
        'mutation ($id: ID!, $v: Int, $k: String) { abortGame(id: $id, expectedVersion: $v, idempotencyKey: $k) { status result { winner reason } version } }',
        { id: early.id, v: 1, k: 'abort-1' },
      );
      expect(aborted.abortGame).toEqual({
        status: 'finished',
        result: { winner: null, reason: 'aborted' },
        version: 2,
      });

      const late = await startGame(alice, bob, 'oware');
      let game = late;
      for (const token of [alice.token, bob.token]) {
        game = (await ok(url, token, MOVE, { id: late.id, move: game.legalMoves[0] })).submitMove;
      }
      const tooLate = await failure(url, alice.token, 'mutation ($id: ID!) { abortGame(id: $id) { id } }', {
        id: late.id,
      });
      expect(tooLate.code).toBe('TOO_LATE_TO_ABORT');
      const stranger = await signUp(run.app, 'outsider', 'human');
      expect(
        (
          await failure(url, stranger.token, 'mutation ($id: ID!) { abortGame(id: $id) { id } }', {
            id: late.id,
          })
        ).code,
      ).toBe('FORBIDDEN');
      expect((await ok(url, undefined, GAME_QUERY, { id: late.id })).game).toEqual(game);
    });

    it('answers claimDraw with NO_DRAW_CLAIM (or CLAIM_TOO_EARLY) and leaves the game unchanged', async () => {
      const game = await startGame(alice, bob, 'russian-draughts');
      const claimBy = (who: TestAccount) =>
        failure(
          url,
          undefined,
          'mutation ($id: ID!, $t: String) { claimDraw(id: $id, seatToken: $t) { id } }',
          {
            id: game.id,
            t: who.token,
          },
        );
      // Alice, to move, has nothing to claim; Bob, waiting, may claim an abandoned game only later.
      expect((await claimBy(alice)).code).toBe('NO_DRAW_CLAIM');
      expect(await claimBy(bob)).toMatchObject({
        code: 'CLAIM_TOO_EARLY',
        claimableAt: new Date(
          Date.parse((await run.app.service.getGame(game.id)).createdAt) + 3 * 24 * 3600 * 1000,
        ).toISOString(),
        abandonClaimSeconds: 3 * 24 * 3600,
      });
      expect(
        (await failure(url, undefined, 'mutation ($id: ID!) { claimDraw(id: $id) { id } }', { id: game.id }))
          .code,
      ).toBe('UNAUTHENTICATED');
      expect((await ok(url, undefined, GAME_QUERY, { id: game.id })).game).toEqual(game);
    });
  });

  // Each game's last move: every move of 20 games is costed as 20 games of 1000 plies (368,019).
  it('answers a whole bot dashboard in one request within the depth and cost limits', async () => {
    const game = await startGame(alice, bob, 'congo');
    const { me, myTokens, myChallenges, events, games } = await ok(
      url,
      bob.token,
      `query ($me: String!) {
        me { ${ACCOUNT} }
        myTokens { ${TOKEN} }
        myChallenges { ${CHALLENGE} }
        events(after: 0, limit: 50) { last events { seq type at data } }
        games(account: $me, status: "ongoing") { next items { id kind status toMove version legalMoves
          seats { seat name account } lastMove { ply notation seat at }
          board { ... on MancalaBoard { houses stores }
                  ... on GridBoard { files ranks pieces { square piece side } zones { name side squares } } } } }
      }`,
      { me: bob.username },
    );
    expect(me.id).toBe(bob.id);
    expect(myTokens.length).toBeGreaterThan(0);
    expect(Array.isArray(myChallenges)).toBe(true);
    expect(events.last).toBeGreaterThan(0);
    expect(games.items.map((g: { id: string }) => g.id)).toContain(game.id);
  });

  describe('the events page', () => {
    it('pages through the caller’s feed in order: challenge, game start, moves and finish', async () => {
      const [p, q] = [await signUp(run.app, 'pager', 'bot'), await signUp(run.app, 'paged', 'bot')];
      const game = await startGame(p, q, 'oware');
      await ok(url, p.token, MOVE, { id: game.id, move: game.legalMoves[0] });
      await ok(url, q.token, 'mutation ($id: ID!) { abortGame(id: $id) { id } }', { id: game.id });

      const all = (await ok(url, q.token, EVENTS, { after: 0 })).events;
      expect(all.last).toBe(5);
      expect(all.events.map((e: { seq: number; type: string }) => [e.seq, e.type])).toEqual([
        [1, 'challenge.received'],
        [2, 'challenge.accepted'],
        [3, 'game.started'],
        [4, 'game.moved'],
        [5, 'game.finished'],
      ]);
      const [received, , started, moved, finished] = all.events;
      expect(received.data.challenge).toMatchObject({ challenger: p.id, destination: q.id, status: 'open' });
      expect(started.data.game).toMatchObject({ id: game.id, version: 0 });
      expect(moved.data).toMatchObject({
        move: game.legalMoves[0],
        seat: 0,
        game: { id: game.id, version: 1 },
      });
      expect(finished.data.result).toEqual({
        winner: null,
        winnerName: null,
        reason: 'aborted',
        score: null,
      });
      // Events carry the game's head: the game without its moves.
      const { moves: _moves, ...head } = await run.app.services.games.getGame(game.id);
      expect(finished.data.game).toEqual(head as unknown);

      const page = (await ok(url, q.token, EVENTS, { after: 1, limit: 2 })).events;
      expect(page.events.map((e: { seq: number }) => e.seq)).toEqual([2, 3]);
      expect(page).toMatchObject({ next: 3, last: 5 });
      const rest = (await ok(url, q.token, EVENTS, { after: page.next, limit: 2 })).events;
      expect(rest.events.map((e: { seq: number }) => e.seq)).toEqual([4, 5]);
      expect((await ok(url, q.token, EVENTS, { after: 5 })).events).toEqual({ events: [], next: 5, last: 5 });
      // The challenger's own feed has no challenge.received.
      const challengers = (await ok(url, p.token, EVENTS, { after: 0 })).events.events;
      expect(challengers.map((e: { type: string }) => e.type)).toEqual([
        'challenge.accepted',
        'game.started',
        'game.moved',
        'game.finished',
      ]);

      expect(await failure(url, q.token, EVENTS, { after: 6 })).toMatchObject({
        code: 'INVALID_INPUT',
        last: 5,
      });
      expect((await failure(url, q.token, EVENTS, { after: -1 })).code).toBe('INVALID_INPUT');
      expect((await failure(url, q.token, EVENTS, { after: 0, limit: 501 })).code).toBe('INVALID_INPUT');
      expect((await failure(url, undefined, EVENTS, { after: 0 })).code).toBe('UNAUTHENTICATED');
    });
  });
});

describe('the events subscription when events are gone or the store fails', () => {
  const apps: App[] = [];
  afterAll(() => Promise.all(apps.map((app) => app.stop())));

  async function start(storage: Storage, now?: () => Date): Promise<{ app: App; url: string }> {
    const app = await createApp({
      storage,
      graphql: { maxDepth: 8, maxCost: 1000 },
      ...(now ? { now } : {}),
    });
    apps.push(app);
    return { app, url: `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}` };
  }

  it('answers EVENTS_EXPIRED when the events after `after` were trimmed (21 days), with the oldest kept', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const { app, url } = await start(createMemoryStorage(), () => new Date(clock));
    const [p, q] = [await signUp(app, 'old', 'bot'), await signUp(app, 'new', 'bot')];
    const challenge = { to: q.username, kind: 'kalah' };
    await app.services.challenges.create({ token: p.token }, challenge);
    await app.services.challenges.create({ token: p.token }, challenge);
    clock += 22 * 24 * 60 * 60 * 1000;
    await app.services.challenges.create({ token: p.token }, challenge);

    const feed = subscribeEvents(url, q.token, 0);
    const expired = await subscriptionFailure(feed.next());
    await feed.close();
    expect(expired.code).toBe('EVENTS_EXPIRED');
    expect(expired.extensions).toMatchObject({ first: 3, last: 3 });
    // Resuming from the oldest kept works.
    const resumed = subscribeEvents(url, q.token, 2);
    expect((await resumed.next()).seq).toBe(3);
    await resumed.close();
  });

  it('stops following the feed when the client ends the subscription', async () => {
    const memory = createMemoryStorage();
    // Subscriptions per account: the server follows other feeds of its own (the AI accounts').
    const following = new Map<string, number>();
    const count = (account: string, by: number) => following.set(account, (following.get(account) ?? 0) + by);
    const counted: EventFeed = {
      append: (notices) => memory.feed.append(notices),
      forwardApps: () => memory.feed.forwardApps(),
      read: (account, after, limit) => memory.feed.read(account, after, limit),
      erase: (account) => memory.feed.erase(account),
      async subscribe(account, listener) {
        const unsubscribe = await memory.feed.subscribe(account, listener);
        count(account, 1);
        return async () => {
          count(account, -1);
          await unsubscribe();
        };
      },
    };
    const { app, url } = await start({ ...memory, feed: counted });
    const [p, q] = [await signUp(app, 'talker', 'bot'), await signUp(app, 'listener', 'bot')];
    const feed = subscribeEvents(url, q.token, 0);
    const first = feed.next();
    await app.services.challenges.create({ token: p.token }, { to: q.username, kind: 'kalah' });
    expect((await first).type).toBe('challenge.received');
    expect(following.get(q.id)).toBe(1);
    await feed.close();
    for (let i = 0; i < 100 && following.get(q.id)! > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(following.get(q.id)).toBe(0);
  });

  // A store outage is read again for about 3 s (5 more reads) before the subscription ends: a
  // restarting Redis does not end every follow; anything else ends it at the first failure.
  it.each([
    ['a Redis error', new Error('Connection is closed.'), 'STORE_UNAVAILABLE', 6],
    ['a GameError', new GameError('RATE_LIMITED', 'Slow down'), 'RATE_LIMITED', 1],
    ['a bug', new TypeError('x is undefined'), 'INTERNAL', 1],
  ])(
    'ends the subscription with an error and its code when the store fails mid-stream (%s)',
    async (_, thrown, code, reads) => {
      const memory = createMemoryStorage();
      const flaky = flakyFeed(memory.feed, thrown);
      const { app, url } = await start({ ...memory, feed: flaky.feed });
      const [p, q] = [await signUp(app, 'pusher', 'bot'), await signUp(app, 'follower', 'bot')];
      const feed = subscribeEvents(url, q.token);
      const failed = subscriptionFailure(feed.next());
      await flaky.subscribed;
      // seq 1 is lost on its way (as between nodes); filling the gap before seq 2 needs a read, which fails.
      await app.services.challenges.create({ token: p.token }, { to: q.username, kind: 'kalah' });
      await app.services.challenges.create({ token: p.token }, { to: q.username, kind: 'kalah' });
      const error = await failed;
      await feed.close();
      expect(error.code).toBe(code);
      if (code === 'INTERNAL') expect(error.message).not.toContain('x is undefined');
      expect(flaky.failedReads).toBe(reads);
    },
  );
});

/**
 * A feed whose live delivery loses seq 1 and whose reads fail once a subscriber has caught up: what
 * a Redis outage looks like to FeedService.follow while it fills a gap.
 */
function flakyFeed(inner: EventFeed, thrown: Error) {
  let resolveSubscribed!: () => void;
  const subscribed = new Promise<void>((resolve) => (resolveSubscribed = resolve));
  let live = false;
  const state = { failedReads: 0 };
  const feed: EventFeed = {
    append: (notices) => inner.append(notices),
    erase: (account) => inner.erase(account),
    forwardApps: () => inner.forwardApps(),
    async read(account, after, limit) {
      if (live) {
        state.failedReads++;
        throw thrown;
      }
      const page = await inner.read(account, after, limit);
      live = true;
      resolveSubscribed();
      return page;
    },
    subscribe: (account, listener) =>
      inner.subscribe(account, (event: FeedEvent) => {
        if (event.seq !== 1) listener(event);
      }),
  };
  return {
    feed,
    subscribed,
    get failedReads() {
      return state.failedReads;
    },
  };
}
