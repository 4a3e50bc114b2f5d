// The authorization matrix: each action refused for no token, a token without the scope, a revoked
// token and another account's token, with the right code on both transports, and nothing changed.
import type { App } from '../../src/app';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, gql } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

type Action = 'move' | 'resign' | 'offerDraw' | 'abort' | 'accept' | 'cancel' | 'readFeed';
type Who = 'none' | 'wrongScope' | 'revoked' | 'otherAccount';

interface Ids {
  readonly game: string;
  /** A challenge from bob to alice (alice may accept it). */
  readonly incoming: string;
  /** A challenge from alice to bob (alice may cancel it). */
  readonly outgoing: string;
}

/** What each refusal must be, by action and credential. */
const EXPECTED: Record<Who, string> = {
  none: 'UNAUTHENTICATED',
  wrongScope: 'MISSING_SCOPE',
  revoked: 'UNAUTHENTICATED',
  otherAccount: 'FORBIDDEN',
};

/** One action as alice would do it, over a transport; resolves with the error code (or 'OK'). */
type Runner = (url: string, action: Action, token: string | undefined, ids: Ids) => Promise<string>;

const restRunner: Runner = async (url, action, token, ids) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const post = (path: string, body: unknown = {}) =>
    fetch(`${url}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const res = await {
    move: () => post(`/games/${ids.game}/moves`, { move: '1' }),
    resign: () => post(`/games/${ids.game}/resign`),
    offerDraw: () => post(`/games/${ids.game}/draw/offer`),
    abort: () => post(`/games/${ids.game}/abort`),
    accept: () => post(`/challenges/${ids.incoming}/accept`),
    cancel: () => post(`/challenges/${ids.outgoing}/cancel`),
    readFeed: () => fetch(`${url}/api/v1/account/events?after=0`, { headers }),
  }[action]();
  if (res.ok) return 'OK';
  const problem = (await res.json()) as { code: string; status: number };
  expect(problem.status).toBe(res.status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return problem.code;
};

const graphqlRunner: Runner = async (url, action, token, ids) => {
  const query = {
    move: `mutation { submitMove(id: "${ids.game}", move: "1") { version } }`,
    resign: `mutation { resign(id: "${ids.game}") { version } }`,
    offerDraw: `mutation { offerDraw(id: "${ids.game}") { version } }`,
    abort: `mutation { abortGame(id: "${ids.game}") { version } }`,
    accept: `mutation { acceptChallenge(id: "${ids.incoming}") { status } }`,
    cancel: `mutation { cancelChallenge(id: "${ids.outgoing}") { status } }`,
    readFeed: `{ events(after: 0) { last events { seq type data } } }`,
  }[action];
  const { body } = await gql(url, query, {}, token ? { authorization: `Bearer ${token}` } : {});
  return body.errors ? String(body.errors[0]?.extensions?.code) : 'OK';
};

describe.each([
  ['REST', restRunner],
  ['GraphQL', graphqlRunner],
] as const)('authorization matrix over %s', (_name, run) => {
  let app: App;
  let url: string;
  let alice: TestAccount;
  let bob: TestAccount;
  let carol: TestAccount;
  /** alice's tokens by case (the "right" account, wrong in one way each). */
  const tokens: Partial<Record<Who, string>> = {};
  /** A token of alice lacking the scope each action needs. */
  let readOnly: string;
  let playOnly: string;
  let ids: Ids;

  beforeAll(async () => {
    const running = await harness.start('redis');
    app = running.app;
    url = running.url;
    [alice, bob, carol] = [
      await signUp(app, 'alice', 'human'),
      await signUp(app, 'bob', 'human'),
      await signUp(app, 'carol', 'human'),
    ];
    const accounts = app.services.accounts;
    readOnly = (await accounts.createToken({ token: alice.token }, { scopes: ['game:read'] })).token;
    playOnly = (await accounts.createToken({ token: alice.token }, { scopes: ['game:play'] })).token;
    const revoked = await accounts.createToken(
      { token: alice.token },
      { scopes: ['game:read', 'game:play', 'challenge:write'] },
    );
    await accounts.revokeToken({ token: alice.token }, revoked.id);
    tokens.revoked = revoked.token;
    tokens.otherAccount = carol.token;

    const challenges = app.services.challenges;
    const toPlay = await challenges.create(
      { token: alice.token },
      { to: bob.username, kind: 'kalah', starts: 'challenger' },
    );
    const accepted = await challenges.accept({ token: bob.token }, toPlay.id);
    const incoming = await challenges.create({ token: bob.token }, { to: alice.username, kind: 'oware' });
    const outgoing = await challenges.create({ token: alice.token }, { to: bob.username, kind: 'congo' });
    ids = { game: accepted.gameId as string, incoming: incoming.id, outgoing: outgoing.id };
    // alice (seat 0) is to move: every game action below is hers to make.
    expect((await app.service.getGame(ids.game)).seats[0]?.account).toBe(alice.id);
  });

  const snapshot = async () => ({
    game: await app.service.getGame(ids.game),
    incoming: await app.services.challenges.get(ids.incoming),
    outgoing: await app.services.challenges.get(ids.outgoing),
    aliceFeed: await app.services.feed.read({ token: alice.token }, 0, 500),
  });

  const actions: Action[] = ['move', 'resign', 'offerDraw', 'abort', 'accept', 'cancel', 'readFeed'];
  const whos: Who[] = ['none', 'wrongScope', 'revoked', 'otherAccount'];

  it.each(actions.flatMap((a) => whos.map((w) => [a, w] as const)))(
    '%s with %s is refused with the right code and changes nothing',
    async (action, who) => {
      const before = await snapshot();
      const token =
        who === 'none'
          ? undefined
          : who === 'wrongScope'
            ? action === 'readFeed'
              ? playOnly
              : readOnly
            : tokens[who];
      const code = await run(url, action, token, ids);
      if (action === 'readFeed' && who === 'otherAccount') {
        // There is no way to name another account's feed: carol reads her own, which is empty.
        expect(code).toBe('OK');
        const carolFeed = await app.services.feed.read({ token: carol.token }, 0, 500);
        expect(carolFeed.events).toEqual([]);
      } else {
        expect(code).toBe(EXPECTED[who]);
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it('lets alice do each of them with her own full token (the matrix refuses for the right reasons)', async () => {
    expect(await run(url, 'readFeed', alice.token, ids)).toBe('OK');
    expect(await run(url, 'cancel', alice.token, ids)).toBe('OK');
    expect(await run(url, 'accept', alice.token, ids)).toBe('OK');
    expect(await run(url, 'offerDraw', alice.token, ids)).toBe('OK');
    expect(await run(url, 'move', alice.token, ids)).toBe('OK');
    expect((await app.service.getGame(ids.game)).ply).toBe(1);
  });
});
