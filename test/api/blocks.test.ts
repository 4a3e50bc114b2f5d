// Issue #28 item 10 on both stores: an account blocks another. The blocked account's challenges to
// the blocker are refused (403 BLOCKED), its open ones are declined when the block is made, it
// cannot accept the blocker's open challenges, seeks never pair the two; unblocking undoes it. The
// list is paged and bounded (MAX_BLOCKS_PER_ACCOUNT, 409 TOO_MANY_BLOCKS); REST and GraphQL alike.
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, gql, type Running, type StoreKind, rest } from '../support/app';

const MAX_BLOCKS = 4;
const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each<StoreKind>(['memory', 'redis'])('blocks on %s', (store) => {
  let run: Running;
  let a: TestAccount[];
  beforeAll(async () => {
    run = await harness.start(store, {
      app: {
        quotas: {
          ongoingGamesPerAccount: 1000,
          tokensPerAccount: 1000,
          accountsPerIpPerDay: 1000,
          gamesPerIpPerDay: 1000,
          blocksPerAccount: MAX_BLOCKS,
        },
      },
    });
    a = [];
    for (let i = 0; i < 8; i++) a.push(await signUp(run.app, `bl${i}`, 'human'));
  });
  const who = (i: number) => a[i] as TestAccount;
  const challenge = (from: number, body: object) =>
    rest(run, who(from), 'POST', '/challenges', { kind: 'kalah', ...body });
  const block = (by: number, whom: string) =>
    rest(run, who(by), 'PUT', `/account/blocks/${encodeURIComponent(whom)}`);
  const unblock = (by: number, whom: string) =>
    rest(run, who(by), 'DELETE', `/account/blocks/${encodeURIComponent(whom)}`);

  it('declines the open challenges of the account blocked, refuses its new ones until unblocked', async () => {
    const direct = (await challenge(1, { to: who(0).username })).body;
    const named = (await challenge(1, { players: [who(1).username, who(0).username] })).body;
    const toOther = (await challenge(1, { to: who(2).username })).body;
    expect([direct.status, named.status, toOther.status]).toEqual(['open', 'open', 'open']);

    expect((await block(0, who(1).username.toUpperCase())).status).toBe(204);
    expect((await block(0, who(1).username)).status).toBe(204); // idempotent
    for (const id of [direct.id, named.id]) {
      const c = (await rest(run, who(1), 'GET', `/challenges/${id}`)).body;
      expect([c.status, c.declineReason, c.closedBy]).toEqual(['declined', 'generic', who(0).id]);
    }
    // Only the blocker's: the blocked account's other challenges stay open.
    expect((await rest(run, who(1), 'GET', `/challenges/${toOther.id}`)).body.status).toBe('open');
    expect((await rest(run, who(0), 'GET', '/challenges')).body.items).toEqual([]);
    // The challenger heard of each decline in its feed.
    const feed = await run.app.services.feed.read({ token: who(1).token }, 0, 100);
    const declined = feed.events
      .filter((e) => e.type === 'challenge.declined')
      .map((e: any) => e.data.challenge.id);
    expect(declined.sort()).toEqual([direct.id, named.id].sort());

    const refused = await challenge(1, { to: who(0).username });
    expect([refused.status, refused.body.code]).toEqual([403, 'BLOCKED']);
    expect(Object.keys(refused.body).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
    const refusedNamed = await challenge(1, { players: [who(0).username, who(1).username] });
    expect([refusedNamed.status, refusedNamed.body.code]).toEqual([403, 'BLOCKED']);
    expect((await rest(run, who(0), 'GET', '/challenges')).body.items).toEqual([]);
    // Nor may it accept the blocker's open challenge; others may.
    const open = (await challenge(0, {})).body;
    const accept = await rest(run, who(1), 'POST', `/challenges/${open.id}/accept`);
    expect([accept.status, accept.body.code]).toEqual([403, 'BLOCKED']);
    // The blocker may still challenge the account it blocks.
    expect((await challenge(0, { to: who(1).username })).status).toBe(201);

    expect((await unblock(0, who(1).username)).status).toBe(204);
    expect((await unblock(0, who(1).username)).status).toBe(204); // idempotent
    expect((await challenge(1, { to: who(0).username })).status).toBe(201);
    expect((await rest(run, who(1), 'POST', `/challenges/${open.id}/accept`)).status).toBe(200);
  });

  it('refuses blocking oneself or an unknown account, and past MAX_BLOCKS_PER_ACCOUNT', async () => {
    const self = await block(3, who(3).username);
    expect([self.status, self.body.code]).toEqual([400, 'INVALID_INPUT']);
    const unknown = await block(3, 'nobody-at-all');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    for (let i = 4; i < 4 + MAX_BLOCKS; i++) expect((await block(3, who(i).username)).status).toBe(204);
    const full = await block(3, who(0).username);
    expect([full.status, full.body.code, full.body.max]).toEqual([409, 'TOO_MANY_BLOCKS', MAX_BLOCKS]);
    // Blocking one already blocked still answers 204.
    expect((await block(3, who(4).username)).status).toBe(204);

    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page: any = (
        await rest(run, who(3), 'GET', `/account/blocks?limit=3${after ? `&after=${after}` : ''}`)
      ).body;
      seen.push(...page.items.map((b: any) => b.username));
      after = page.next;
      if (after === null) break;
      expect(page.items).toHaveLength(3);
    }
    const expected = [4, 5, 6, 7].map((i) => who(i).username).sort();
    expect(seen).toEqual(expected);
    expect((await rest(run, who(3), 'GET', '/account/blocks?limit=0')).status).toBe(400);
    // Unblocking makes room again.
    expect((await unblock(3, who(7).username)).status).toBe(204);
    expect((await block(3, who(0).username)).status).toBe(204);
  });

  it('never pairs seeks of a blocked pair, either way', async () => {
    const seek = (i: number) => rest(run, who(i), 'POST', '/seeks', { kind: 'oware', options: { seeds: 4 } });
    expect((await block(5, who(6).username)).status).toBe(204);
    const waiting = await seek(6);
    expect(waiting.body.status).toBe('waiting');
    // The blocker's seek passes over the blocked one's; and the other way round.
    expect((await seek(5)).body.status).toBe('waiting');
    const third = await seek(2);
    expect(third.body.status).toBe('matched');
    const fourth = await seek(1);
    expect(fourth.body.status).toBe('matched');
    const players = [third, fourth].map((s) => s.body.game.seats.map((x: any) => x.account).sort());
    expect(players).toEqual([[who(2).id, who(6).id].sort(), [who(1).id, who(5).id].sort()]);
  });

  it('GraphQL: blockAccount, myBlocks, unblockAccount; a blocked challenge answers BLOCKED', async () => {
    const blocker = who(2);
    const blockedOne = who(1);
    const made = await gql(
      run.url,
      'mutation($u: String!) { blockAccount(username: $u) }',
      { u: blockedOne.username },
      blocker.auth,
    );
    expect(made.body.data).toEqual({ blockAccount: true });
    const listed = await gql(run.url, '{ myBlocks(limit: 10) { username createdAt } }', {}, blocker.auth);
    expect((listed.body.data as any).myBlocks.map((b: any) => b.username)).toEqual([blockedOne.username]);
    const refused = await gql(
      run.url,
      'mutation($u: String!) { createChallenge(input: { kind: "kalah", to: $u }) { id } }',
      { u: blocker.username },
      blockedOne.auth,
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('BLOCKED');
    const self = await gql(
      run.url,
      'mutation($u: String!) { blockAccount(username: $u) }',
      { u: blocker.username },
      blocker.auth,
    );
    expect(self.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
    const undone = await gql(
      run.url,
      'mutation($u: String!) { unblockAccount(username: $u) }',
      { u: blockedOne.username },
      blocker.auth,
    );
    expect(undone.body.data).toEqual({ unblockAccount: true });
    expect(
      ((await gql(run.url, '{ myBlocks { username } }', {}, blocker.auth)).body.data as any).myBlocks,
    ).toEqual([]);
  });
});
