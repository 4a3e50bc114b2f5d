// The chat tools of the MCP server on both stores: send_chat writes as the caller's seat, read_chat
// reads (only what is new with `after`), and refusals come back as tool errors with their codes.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { challengeGame } from '../support/clocks';
import { call, httpClient, must } from './mcp-support';

const harness = appHarness();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await harness.stopAll();
});

describe.each<StoreKind>(['memory', 'redis'])('MCP chat tools on %s', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });
  const agent = async (who: TestAccount) => {
    const client = await httpClient(run.url, who.token);
    clients.push(client);
    return client;
  };

  it('sends and reads a game’s chat as a seat, and refuses others with CHAT_DISABLED', async () => {
    const [a, b, c] = [
      await signUp(run.app, 'mca'),
      await signUp(run.app, 'mcb'),
      await signUp(run.app, 'mcc'),
    ];
    const game = await challengeGame(run, a, b);
    const [x, y, z] = [await agent(a), await agent(b), await agent(c)];
    const sent = await must(x, 'send_chat', { gameId: game.id, text: 'gl hf' });
    expect(sent.message).toMatchObject({ id: '1', seat: 0, account: a.id, text: 'gl hf' });
    const reply = await must(y, 'send_chat', { gameId: game.id, text: 'you too' });
    expect((await must(y, 'read_chat', { gameId: game.id })).messages).toEqual([sent.message, reply.message]);
    expect(await must(x, 'read_chat', { gameId: game.id, after: '1' })).toEqual({
      messages: [reply.message],
      muted: false,
    });
    // The other seat heard of the message in its feed.
    const feed = await run.app.services.feed.read({ token: b.token }, 0, 100);
    expect(feed.events.filter((e) => e.type === 'chat.message').map((e) => e.data.message)).toEqual([
      sent.message,
    ]);

    const spectator = await call(z, 'read_chat', { gameId: game.id });
    expect([spectator.isError, spectator.body.code, spectator.body.by]).toEqual([
      true,
      'CHAT_DISABLED',
      'spectators',
    ]);
    const empty = await call(x, 'send_chat', { gameId: game.id, text: '   ' });
    expect([empty.isError, empty.body.code]).toEqual([true, 'INVALID_INPUT']);
  });
});
