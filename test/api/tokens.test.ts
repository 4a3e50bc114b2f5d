// API tokens: optional expiry (checked on every request, both transports), lastUsedAt (written at
// most once a minute), revoking needs the revoked token's scopes, the last root token stays, and
// the active-tokens quota.
import request from 'supertest';
import { signUp } from '../support/accounts';
import { appHarness, type StoreKind } from '../support/app';
import { failure, ok } from '../support/graphql';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each<StoreKind>(['redis', 'memory'])('API tokens on the %s store', (store) => {
  /** The services' clock: real time plus `skew`, so a test can move past an expiry. */
  let skew = 0;
  const now = () => new Date(Date.now() + skew);
  let url: string;
  let app: Awaited<ReturnType<typeof harness.start>>['app'];
  beforeAll(async () => {
    ({ url, app } = await harness.start(store, { now, app: { quotas: quotas(3) } }));
  });
  beforeEach(() => {
    skew = 0;
  });

  it('expires a token at its time: 401 TOKEN_EXPIRED on REST and GraphQL, the others unaffected', async () => {
    const owner = await signUp(app, 'exp', 'human');
    const created = await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ label: 'ci', scopes: ['game:read'], expiresInSeconds: 3600 })
      .expect(201);
    const expiresAt = Date.parse(created.body.expiresAt);
    expect(Math.abs(expiresAt - (Date.now() + 3600_000))).toBeLessThan(10_000);
    const short = created.body.token as string;
    await request(url).get('/api/v1/account').set(bearer(short)).expect(200);

    skew = 3601_000;
    const refused = await request(url).get('/api/v1/account').set(bearer(short));
    expectProblem(refused, 401, 'TOKEN_EXPIRED');
    expect(refused.body.expiredAt).toBe(created.body.expiresAt);
    expect((await failure(url, short, '{ me { id } }')).code).toBe('TOKEN_EXPIRED');
    // The first token never expires.
    await request(url).get('/api/v1/account').set(bearer(owner.token)).expect(200);
    const listed = await request(url).get('/api/v1/account/tokens').set(bearer(owner.token)).expect(200);
    expect(listed.body.items.map((t: { expiresAt: string | null }) => t.expiresAt)).toEqual([
      null,
      created.body.expiresAt,
    ]);
    // Over GraphQL too, with the lifetime checked.
    const { createToken } = await ok(
      url,
      owner.token,
      'mutation { createToken(scopes: ["game:read"], expiresInSeconds: 120) { expiresAt lastUsedAt } }',
    );
    expect(Date.parse(createToken.expiresAt)).toBeGreaterThan(Date.now());
    expect(createToken.lastUsedAt).toBeNull();
    const tooShort = await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ scopes: ['game:read'], expiresInSeconds: 5 });
    expectProblem(tooShort, 400, 'INVALID_INPUT');
  });

  it('shows lastUsedAt, written at most once a minute per token', async () => {
    const owner = await signUp(app, 'used', 'human');
    const lastUsed = async () => {
      const res = await request(url).get('/api/v1/account/tokens').set(bearer(owner.token)).expect(200);
      return res.body.items[0].lastUsedAt as string | null;
    };
    // The listing itself is a use; the write is not waited for, so look again shortly.
    let first: string | null = null;
    for (let i = 0; i < 40 && first === null; i++) {
      first = await lastUsed();
      if (first === null) await sleep(25);
    }
    expect(first).not.toBeNull();
    expect(Math.abs(Date.parse(first as string) - Date.now())).toBeLessThan(10_000);
    await request(url).get('/api/v1/account').set(bearer(owner.token)).expect(200);
    await sleep(100);
    expect(await lastUsed()).toBe(first); // within the minute: not written again

    skew = 61_000;
    await request(url).get('/api/v1/account').set(bearer(owner.token)).expect(200);
    let later: string | null = first;
    for (let i = 0; i < 40 && later === first; i++) {
      await sleep(25);
      later = await lastUsed();
    }
    expect(Date.parse(later as string)).toBeGreaterThanOrEqual(Date.parse(first as string) + 60_000);
    const { myTokens } = await ok(url, owner.token, '{ myTokens { id lastUsedAt } }');
    expect(myTokens[0].lastUsedAt).toEqual(expect.any(String));
  });

  it('lets a token revoke another only with all its scopes, and itself always', async () => {
    const owner = await signUp(app, 'scoped', 'human');
    const reader = await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ label: 'reader', scopes: ['game:read'] })
      .expect(201);
    const player = await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ label: 'player', scopes: ['game:read', 'game:play'] })
      .expect(201);
    const listed = await request(url).get('/api/v1/account/tokens').set(bearer(owner.token)).expect(200);
    const firstId = listed.body.items[0].id as string;

    const refused = await request(url)
      .delete(`/api/v1/account/tokens/${player.body.id}`)
      .set(bearer(reader.body.token));
    expectProblem(refused, 403, 'MISSING_SCOPE');
    expect(refused.body.required).toEqual(['game:read', 'game:play']);
    const gql = await failure(url, reader.body.token, `mutation { revokeToken(id: "${firstId}") { id } }`);
    expect(gql.code).toBe('MISSING_SCOPE');
    // Nothing was revoked.
    await request(url).get('/api/v1/account').set(bearer(player.body.token)).expect(200);

    // The player token holds the reader's scopes; the reader may revoke itself.
    await request(url)
      .delete(`/api/v1/account/tokens/${reader.body.id}`)
      .set(bearer(player.body.token))
      .expect(200);
    expectProblem(
      await request(url).get('/api/v1/account').set(bearer(reader.body.token)),
      401,
      'UNAUTHENTICATED',
    );
    const self = await ok(
      url,
      player.body.token,
      `mutation { revokeToken(id: "${player.body.id}") { revokedAt } }`,
    );
    expect(self.revokeToken.revokedAt).toEqual(expect.any(String));
  });

  it('never revokes the last root token, and lets a new root token take its place', async () => {
    const owner = await signUp(app, 'root', 'bot');
    const listed = await request(url).get('/api/v1/account/tokens').set(bearer(owner.token)).expect(200);
    const firstId = listed.body.items[0].id as string;

    const last = await request(url).delete(`/api/v1/account/tokens/${firstId}`).set(bearer(owner.token));
    expectProblem(last, 409, 'LAST_ROOT_TOKEN');
    expect(last.body.scopes).toEqual(['game:read', 'bot:play', 'challenge:write']);
    expect((await failure(url, owner.token, `mutation { revokeToken(id: "${firstId}") { id } }`)).code).toBe(
      'LAST_ROOT_TOKEN',
    );
    // A full token that expires is no root: it may not revoke one (ROOT_TOKEN_REQUIRED, before the
    // last-root check).
    const expiring = await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ scopes: ['game:read', 'bot:play', 'challenge:write'], expiresInSeconds: 600 })
      .expect(201);
    expectProblem(
      await request(url).delete(`/api/v1/account/tokens/${firstId}`).set(bearer(expiring.body.token)),
      403,
      'ROOT_TOKEN_REQUIRED',
    );
    // The recovery path: a new root token first, then the old one goes.
    const root = await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ label: 'new root', scopes: ['game:read', 'bot:play', 'challenge:write'] })
      .expect(201);
    await request(url).delete(`/api/v1/account/tokens/${firstId}`).set(bearer(root.body.token)).expect(200);
    expectProblem(await request(url).get('/api/v1/account').set(bearer(owner.token)), 401, 'UNAUTHENTICATED');
    await request(url).get('/api/v1/account').set(bearer(root.body.token)).expect(200);
  });

  // Issue #28 item 5: a 60 s token minted a never-expiring token with every scope (a second root
  // token), which then revoked the owner's root token: the owner was locked out for good.
  it('an expiring token mints nothing that outlives it, and no token but a root revokes a root', async () => {
    const owner = await signUp(app, 'short', 'human');
    const all = ['game:read', 'game:play', 'challenge:write'];
    const listed = await request(url).get('/api/v1/account/tokens').set(bearer(owner.token)).expect(200);
    const rootId = listed.body.items[0].id as string;
    const short = await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ label: 'short', scopes: all, expiresInSeconds: 120 })
      .expect(201);
    const mint = (body: object) =>
      request(url).post('/api/v1/account/tokens').set(bearer(short.body.token)).send(body);

    // Never expiring, every scope of the kind: refused (REST and GraphQL).
    const forever = await mint({ label: 'forever', scopes: all });
    expectProblem(forever, 403, 'TOKEN_OUTLIVES_CALLER');
    expect(forever.body.callerExpiresAt).toBe(short.body.expiresAt);
    expect(forever.body.maxExpiresInSeconds).toBeLessThanOrEqual(120);
    const viaGraphql = await failure(
      url,
      short.body.token,
      'mutation { createToken(scopes: ["game:read", "game:play", "challenge:write"]) { id token } }',
    );
    expect(viaGraphql.code).toBe('TOKEN_OUTLIVES_CALLER');
    // Every scope there is: refused for the scope it lacks.
    expectProblem(
      await mint({ scopes: ['game:read', 'game:play', 'bot:play', 'challenge:write', 'challenge:bulk'] }),
      403,
      'MISSING_SCOPE',
    );
    // Longer than itself: refused; within its own lifetime: made.
    expectProblem(await mint({ scopes: all, expiresInSeconds: 3600 }), 403, 'TOKEN_OUTLIVES_CALLER');
    expect(
      (
        await failure(
          url,
          short.body.token,
          'mutation { createToken(scopes: ["game:read"], expiresInSeconds: 3600) { id } }',
        )
      ).code,
    ).toBe('TOKEN_OUTLIVES_CALLER');
    const child = await mint({ scopes: ['game:read'], expiresInSeconds: 60 }).expect(201);
    expect(Date.parse(child.body.expiresAt)).toBeLessThanOrEqual(Date.parse(short.body.expiresAt));
    await request(url).delete(`/api/v1/account/tokens/${child.body.id}`).set(bearer(owner.token)).expect(200);

    // With a second root token about (so LAST_ROOT_TOKEN does not apply), the expiring token,
    // although it holds every scope, still cannot revoke either root.
    const root2 = await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ label: 'root 2', scopes: all })
      .expect(201);
    expectProblem(
      await request(url).delete(`/api/v1/account/tokens/${rootId}`).set(bearer(short.body.token)),
      403,
      'ROOT_TOKEN_REQUIRED',
    );
    expect(
      (await failure(url, short.body.token, `mutation { revokeToken(id: "${root2.body.id}") { id } }`)).code,
    ).toBe('ROOT_TOKEN_REQUIRED');
    // The owner's root token still works, and no token of the account outlives the short one but the roots.
    await request(url).get('/api/v1/account').set(bearer(owner.token)).expect(200);
    await request(url).get('/api/v1/account').set(bearer(root2.body.token)).expect(200);
    const after = await request(url).get('/api/v1/account/tokens').set(bearer(owner.token)).expect(200);
    const forevers = after.body.items.filter(
      (t: { expiresAt: string | null; revokedAt: string | null }) => t.expiresAt === null && !t.revokedAt,
    );
    expect(forevers.map((t: { id: string }) => t.id).sort()).toEqual([rootId, root2.body.id].sort());
    // A root token may revoke another root (the recovery path), and a token itself.
    await request(url).delete(`/api/v1/account/tokens/${root2.body.id}`).set(bearer(owner.token)).expect(200);
    await request(url)
      .delete(`/api/v1/account/tokens/${short.body.id}`)
      .set(bearer(short.body.token))
      .expect(200);
  });

  it('refuses a token past the active-tokens quota with 409 TOO_MANY_TOKENS; revoking makes room', async () => {
    const owner = await signUp(app, 'many', 'human');
    const made = [];
    for (let i = 0; i < 2; i++) {
      made.push(
        await request(url)
          .post('/api/v1/account/tokens')
          .set(bearer(owner.token))
          .send({ scopes: ['game:read'] })
          .expect(201),
      );
    }
    const refused = await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ scopes: ['game:read'] });
    expectProblem(refused, 409, 'TOO_MANY_TOKENS');
    expect(refused.body.max).toBe(3);
    expect(
      (await failure(url, owner.token, 'mutation { createToken(scopes: ["game:read"]) { id } }')).code,
    ).toBe('TOO_MANY_TOKENS');
    await request(url)
      .delete(`/api/v1/account/tokens/${made[0]?.body.id}`)
      .set(bearer(owner.token))
      .expect(200);
    await request(url)
      .post('/api/v1/account/tokens')
      .set(bearer(owner.token))
      .send({ scopes: ['game:read'] })
      .expect(201);
  });
});

function quotas(tokensPerAccount: number) {
  return {
    ongoingGamesPerAccount: 1_000_000,
    tokensPerAccount,
    accountsPerIpPerDay: 1_000_000,
    gamesPerIpPerDay: 1_000_000,
  };
}
