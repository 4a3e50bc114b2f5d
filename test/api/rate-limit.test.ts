// Rate limits: the N+1th request in a window gets 429 with Retry-After; the window resets.
import { createApp, type App } from '../../src/app';
import { createMemoryStorage } from '../../src/store/memory';
import { createRedisStorage } from '../../src/store/redis';
import { signUp } from '../support/accounts';
import { wsClient } from '../support/app';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';

const LIMITS = { perToken: 5, perIp: 8, windowSeconds: 1 };

describe.each(['redis', 'memory'] as const)('rate limits (%s)', (store) => {
  const prefix = uniquePrefix('ratelimit');
  let app: App;
  let url: string;
  beforeAll(async () => {
    const storage = store === 'redis' ? await createRedisStorage(REDIS_URL, prefix) : createMemoryStorage();
    app = await createApp({ storage, rateLimits: LIMITS, sweepIntervalMs: 0 });
    url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await app.stop();
    await deletePrefix(prefix);
  });

  /** Waits until the start of a fresh 1 s window, so that a burst falls into one window. */
  async function freshWindow(): Promise<void> {
    await new Promise((r) => setTimeout(r, 1100));
  }

  it('counts each token: the 6th request in a window is refused with 429, RATE_LIMITED and Retry-After; then it resets', async () => {
    const bot = await signUp(app, 'limited');
    await freshWindow();
    const answers = [];
    for (let i = 0; i < LIMITS.perToken + 1; i++) {
      answers.push(await fetch(`${url}/api/v1/games?limit=1`, { headers: bot.auth }));
    }
    const ok = answers.slice(0, LIMITS.perToken);
    for (const [i, res] of ok.entries()) {
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"token";q=5;w=1, "ip";q=8;w=1');
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"token";r=${LIMITS.perToken - 1 - i};t=1$`));
    }
    const refused = answers[LIMITS.perToken] as Response;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const problem = (await refused.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({
      code: 'RATE_LIMITED',
      type: 'urn:boardhost:problem:rate-limited',
      status: 429,
    });
    expect(problem.policy).toBe('token');

    await new Promise((r) => setTimeout(r, Number(refused.headers.get('retry-after')) * 1000 + 100));
    const again = await fetch(`${url}/api/v1/games?limit=1`, { headers: bot.auth });
    expect(again.status).toBe(200);
  });

  it('counts each IP across tokens and anonymous requests, and answers GraphQL with the same code', async () => {
    const [a, b] = [await signUp(app, 'ip-a'), await signUp(app, 'ip-b')];
    await freshWindow();
    const statuses: number[] = [];
    // 8 per IP: 4 with each token stay under the per-token limit of 5.
    for (let i = 0; i < LIMITS.perIp; i++) {
      const res = await fetch(`${url}/api/v1/games?limit=1`, { headers: i % 2 === 0 ? a.auth : b.auth });
      statuses.push(res.status);
    }
    expect(statuses).toEqual(Array(LIMITS.perIp).fill(200));
    const gql = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ kinds { kind } }' }),
    });
    expect(gql.status).toBe(429);
    expect(gql.headers.get('retry-after')).not.toBeNull();
    const body = (await gql.json()) as { errors: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', policy: 'ip' });
  });

  it('counts operations over graphql-ws against the token named in connection_init', async () => {
    const bot = await signUp(app, 'ws');
    const client = wsClient(url, { authorization: `Bearer ${bot.token}` });
    try {
      await freshWindow();
      const outcomes: string[] = [];
      for (let i = 0; i < LIMITS.perToken + 1; i++) {
        try {
          for await (const result of client.iterate({ query: '{ kinds { kind } }' })) {
            outcomes.push(result.data ? 'data' : JSON.stringify(result.errors));
          }
        } catch (errors) {
          outcomes.push(
            (errors as Array<{ extensions?: { code?: string } }>)[0]?.extensions?.code ?? 'error',
          );
        }
      }
      expect(outcomes).toEqual([...Array(LIMITS.perToken).fill('data'), 'RATE_LIMITED']);
    } finally {
      await client.dispose();
    }
  });

  it('counts each root field of a GraphQL mutation (aliases too), and refuses before any acts', async () => {
    const bot = await signUp(app, 'aliases');
    const creates = (n: number) =>
      `mutation { ${Array.from({ length: n }, (_, i) => `g${i}: createGame(input: { kind: "kalah" }) { game { id } }`).join(' ')} }`;
    const post = (query: string) =>
      fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bot.auth },
        body: JSON.stringify({ query }),
      });
    const before = (await app.services.games.listGames({ limit: 100 })).items.length;
    await freshWindow();
    // Five creations in one request use the token's five requests.
    const five = await post(creates(LIMITS.perToken));
    expect(five.status).toBe(200);
    expect(Object.keys(((await five.json()) as { data: object }).data)).toHaveLength(LIMITS.perToken);
    await freshWindow();
    const six = await post(creates(LIMITS.perToken + 1));
    expect(six.status).toBe(429);
    expect(six.headers.get('retry-after')).not.toBeNull();
    const body = (await six.json()) as {
      data?: unknown;
      errors: Array<{ extensions: Record<string, unknown> }>;
    };
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', policy: 'token' });
    expect(body.data).toBeUndefined();
    // Only the five of the allowed request were created.
    const after = (await app.services.games.listGames({ limit: 100 })).items.length;
    expect(after - before).toBe(LIMITS.perToken);
  });

  it('counts each operation of a batched request', async () => {
    await freshWindow();
    const batch = Array.from({ length: LIMITS.perIp + 1 }, () => ({ query: '{ kinds }' }));
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    expect(res.status).toBe(429);
    const body = (await res.json()) as { errors: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', policy: 'ip' });
  });

  it('counts each root field of a mutation sent over graphql-ws', async () => {
    const bot = await signUp(app, 'ws-aliases');
    const client = wsClient(url, { authorization: `Bearer ${bot.token}` });
    try {
      await freshWindow();
      const query = `mutation { ${Array.from({ length: LIMITS.perToken + 1 }, (_, i) => `g${i}: createGame(input: { kind: "oware" }) { game { id } }`).join(' ')} }`;
      const outcome = await (async () => {
        try {
          for await (const result of client.iterate({ query })) return result.data ? 'data' : 'errors';
        } catch (errors) {
          return (errors as Array<{ extensions?: { code?: string } }>)[0]?.extensions?.code;
        }
        return 'none';
      })();
      expect(outcome).toBe('RATE_LIMITED');
    } finally {
      await client.dispose();
    }
  });

  it('limits API routes and GraphQL only: health checks are never refused', async () => {
    await freshWindow();
    for (let i = 0; i < LIMITS.perIp + 3; i++) {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    }
  });
});
