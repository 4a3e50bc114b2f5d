// Names people choose and others read (issue #28 items 15 and 18): usernames that look like a
// reserved name once confusable characters are folded (ai_level_1, ai-leveI-1, adm1n, b0ardhost)
// are refused, and so are control and format characters (bidi overrides, zero-width spaces) in
// usernames, token labels and tournament names, on REST and GraphQL, with nothing created.
import request from 'supertest';
import { signUp } from '../support/accounts';
import { appHarness, gql, type Running } from '../support/app';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

describe('names', () => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('memory');
  });

  const signUpRest = (username: string) => request(run.url).post('/api/v1/accounts').send({ username });
  const codeOf = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const { body } = await gql(run.url, query, variables, token ? { authorization: `Bearer ${token}` } : {});
    return body.errors?.[0]?.extensions?.code as string | undefined;
  };

  it('refuses usernames whose confusable skeleton is a reserved name; near names are fine', async () => {
    const lookalikes = [
      'ai_level_1',
      'ai-leveI-1',
      'Ai_LeveL_01',
      'ai-level-l',
      'admin',
      'Admin',
      'adm1n',
      'ADMlN',
      'adrnin',
      'a-d-m-i-n',
      'boardhost',
      'b0ardh0st',
      'Board_Host',
      'root',
      'r00t',
      'system',
      'sys_tem',
      'operator',
      'moderator',
    ];
    for (const username of lookalikes) {
      const res = await signUpRest(username);
      expectProblem(res, 409, 'USERNAME_RESERVED');
      expect(res.body.field).toBe('username');
      expect(await run.storage.accounts.getAccount(username.toLowerCase())).toBeUndefined();
    }
    expect(
      await codeOf('mutation ($u: String!) { createAccount(username: $u) { account { id } } }', {
        u: 'b0ardhost',
      }),
    ).toBe('USERNAME_RESERVED');
    // The AI's own names stay taken (they are real accounts).
    expectProblem(await signUpRest('AI-Level-3'), 409, 'USERNAME_TAKEN');
    for (const username of ['admiral', 'rooted', 'boardhost-fan', 'ai-levels', 'systems-bot', 'operat0r-x']) {
      await signUpRest(username).expect(201);
    }
  });

  it('refuses control and format characters in usernames, token labels and tournament names', async () => {
    const RLO = '\u202E';
    const ZWSP = '\u200B';
    const owner = await signUp(run.app, 'names', 'human');

    const username = await signUpRest(`ali${RLO}ce`);
    expectProblem(username, 400, 'INVALID_CHARACTER');
    expect(username.body).toMatchObject({ field: 'username', character: 'U+202E' });
    expect(
      await codeOf('mutation ($u: String!) { createAccount(username: $u) { account { id } } }', {
        u: `bob${ZWSP}`,
      }),
    ).toBe('INVALID_CHARACTER');

    for (const label of [`ci${ZWSP}`, `ci${RLO}`, 'ci\u0007', 'a\nb', 'x\u2028y', '\u2066iso\u2069']) {
      const res = await request(run.url)
        .post('/api/v1/account/tokens')
        .set(owner.auth)
        .send({ label, scopes: ['game:read'] });
      expectProblem(res, 400, 'INVALID_CHARACTER');
      expect(res.body.field).toBe('label');
    }
    expect(
      await codeOf(
        'mutation ($l: String) { createToken(scopes: ["game:read"], label: $l) { id } }',
        { l: `evil${RLO}txt` },
        owner.token,
      ),
    ).toBe('INVALID_CHARACTER');
    const tokens = await request(run.url).get('/api/v1/account/tokens').set(owner.auth).expect(200);
    expect(tokens.body.items).toHaveLength(1);

    const tournament = (name: string) => ({
      name,
      kind: 'kalah',
      format: 'swiss',
      rounds: 2,
      maxPlayers: 4,
      timeControl: { type: 'realtime', initialSeconds: 60 },
    });
    const refused = await request(run.url)
      .post('/api/v1/tournaments')
      .set(owner.auth)
      .send(tournament(`Cup ${RLO}exe.gnp`));
    expectProblem(refused, 400, 'INVALID_CHARACTER');
    expect(refused.body).toMatchObject({ field: 'name', character: 'U+202E' });
    expect(
      await codeOf(
        'mutation ($n: String!) { createTournament(input: { name: $n, kind: "kalah", format: "swiss", rounds: 2, maxPlayers: 4, timeControl: { type: "realtime", initialSeconds: 60 } }) { id } }',
        { n: `Cup${ZWSP}` },
        owner.token,
      ),
    ).toBe('INVALID_CHARACTER');
    // Ordinary text beyond ASCII is fine.
    const fine = await request(run.url)
      .post('/api/v1/tournaments')
      .set(owner.auth)
      .send(tournament('Coupe d’été ♟ 2025'))
      .expect(201);
    expect(fine.body.name).toBe('Coupe d’été ♟ 2025');
    // Only that one was made.
    const mine = await request(run.url).get('/api/v1/tournaments?mine=true').set(owner.auth).expect(200);
    expect(mine.body.items.map((t: { name: string }) => t.name)).toEqual(['Coupe d’été ♟ 2025']);
  });
});
