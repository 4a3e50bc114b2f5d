// Swagger UI's "Try it out" (/docs) sends the examples of openapi/openapi.json: every
// operation carries them (its request body's example, and one for each path parameter and each
// required query parameter), each matches its schema, and the server accepts it. A live server
// gets each operation's documented request once, with the example body as documented: only the
// ids and secrets a running server makes (game ids, tokens…) are put in by the setup of the
// operation in SETUPS, which also makes what the request needs (a game, a challenge…). The answer
// must be the documented success status, and it is checked against the document like every other.
//
// An operation added to the document fails here until it has examples and a line in SETUPS, e.g.
//   offerTakeback: (w) => w.seatGame({ moves: ['1'] }),
//   offerRematch: (w) => w.accountGame({ finished: true }),
//   acceptSeek: (w) => w.seek(),
import { appHarness, type Running } from '../support/app';
import { signUp, type TestAccount } from '../support/accounts';
import { newApp, type TestApp } from '../support/apps';
import {
  checkedClient,
  type CheckedClient,
  OpenApiChecker,
  operations,
  type Operation,
} from '../support/openapi-check';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

type Json = Record<string, any>;

const OPERATOR_KEY = 'examples-operator-key-0123456789';

/** What one operation's documented request needs on a running server. */
interface Setup {
  /** The credential (default: by the operation's security; a seat token must be given). */
  readonly token?: string | null;
  /** Path parameters in place of the examples (ids the server made). */
  readonly path?: Record<string, string>;
  /** Query parameters in place of the examples. */
  readonly query?: Record<string, string>;
  /** Body members in place of the example's (ids and secrets only: the rest is sent as documented). */
  readonly body?: Json;
  readonly headers?: Record<string, string>;
  /** A stream: opened with this Accept, 200 expected, then closed. */
  readonly stream?: string;
  /** The success status expected, when the operation documents more than one. */
  readonly status?: number;
}

/** Everything the setups share: the server, its accounts, its app, and helpers that make things. */
class World {
  readonly api: CheckedClient;
  private n = 0;
  constructor(
    readonly run: Running,
    readonly ada: TestAccount,
    readonly grace: TestAccount,
    readonly hal: TestAccount,
    readonly app: TestApp,
    readonly receiver: Receiver,
  ) {
    this.api = checkedClient(run.url, new OpenApiChecker());
  }

  private ok(status: number, method: string, path: string, options: Json = {}): Promise<any> {
    return this.api.expectStatus(status, method, `/api/v1${path}`, options);
  }

  /** A name no other setup uses. */
  unique(label: string): string {
    return `${label}-${++this.n}`;
  }

  /** A new human account with a token of every human scope. */
  account(label = 'player'): Promise<TestAccount> {
    return signUp(this.run.app, label, 'human');
  }

  /** POST `path` (under /api/v1) with `token`: 2xx expected; the answer's body. */
  post(path: string, token: string, body: Json = {}): Promise<any> {
    return this.api.call('post', `/api/v1${path}`, { token, body }).then((answer) => {
      if (answer.status >= 300)
        throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    });
  }

  /**
   * A new Kalah game held by seat tokens (south, north), after `moves`, ended by north's resignation
   * when `finished`; seat `seat`'s token acts.
   */
  async seatGame(
    options: { moves?: string[]; seat?: 0 | 1; finished?: boolean } = {},
  ): Promise<Setup & { tokens: string[] }> {
    const created = await this.ok(201, 'post', '/games', { body: { kind: 'kalah' } });
    const id = created.game.id as string;
    const tokens = created.seatTokens.map((t: { token: string }) => t.token) as string[];
    for (const move of options.moves ?? []) {
      const { toMove } = await this.ok(200, 'get', `/games/${id}`);
      await this.ok(200, 'post', `/games/${id}/moves`, { token: tokens[toMove], body: { move } });
    }
    if (options.finished) await this.post(`/games/${id}/resign`, tokens[1]!);
    return { path: { id }, token: tokens[options.seat ?? 0], tokens };
  }

  /**
   * A new Kalah game of ada (south) and grace (a challenge accepted), after `moves`, ended by grace's
   * resignation when `finished`; ada's token acts.
   */
  async accountGame(options: { moves?: string[]; finished?: boolean } = {}): Promise<Setup> {
    const challenge = await this.post('/challenges', this.ada.token, {
      to: this.grace.username,
      kind: 'kalah',
      starts: 'challenger',
    });
    const { gameId: id } = await this.post(`/challenges/${challenge.id}/accept`, this.grace.token);
    for (const [i, move] of (options.moves ?? []).entries()) {
      await this.post(`/games/${id}/moves`, i % 2 === 0 ? this.ada.token : this.grace.token, { move });
    }
    if (options.finished) await this.post(`/games/${id}/resign`, this.grace.token);
    return { path: { id }, token: this.ada.token };
  }

  /** A waiting seek of a new account (Congkak, unlimited: no other seek matches it); ada's token acts. */
  async seek(): Promise<Setup & { owner: TestAccount }> {
    const owner = await this.account('seeker');
    const made = await this.post('/seeks', owner.token, { kind: 'congkak' });
    return { path: { id: made.id }, token: this.ada.token, owner };
  }

  /** A seat game where south played '1' and asked to take it back: north answers. */
  async takebackOffered(): Promise<Setup> {
    const game = await this.seatGame({ moves: ['1'] });
    await this.ok(200, 'post', `/games/${game.path!.id}/takeback/offer`, { token: game.tokens[0] });
    return { ...game, token: game.tokens[1] };
  }

  /** Ada and grace's finished game where grace offered a rematch: ada answers it. */
  async rematchOffered(): Promise<Setup> {
    const game = await this.accountGame({ finished: true });
    await this.post(`/games/${game.path!.id}/rematch`, this.grace.token);
    return game;
  }

  /** A seat game where north offered a draw: south answers it. */
  async drawOffered(): Promise<Setup> {
    const game = await this.seatGame();
    await this.ok(200, 'post', `/games/${game.path!.id}/draw/offer`, { token: game.tokens[1] });
    return game;
  }

  /** An open challenge from ada to grace (answered by grace, unless `by` is ada). */
  async challenge(by: 'ada' | 'grace' = 'grace'): Promise<Setup> {
    const made = await this.ok(201, 'post', '/challenges', {
      token: this.ada.token,
      body: { to: this.grace.username, kind: 'oware' },
    });
    return { path: { id: made.id }, token: this[by].token };
  }

  /** A token of `account` with these scopes. */
  async token(account: TestAccount, scopes: string[]): Promise<{ id: string; token: string }> {
    return this.ok(201, 'post', '/account/tokens', { token: account.token, body: { scopes } });
  }

  /** A bulk pairing of two new accounts organized by ada, starting in an hour. */
  async bulk(): Promise<Setup> {
    const organizer = await this.token(this.ada, ['challenge:bulk']);
    const [one, two] = await Promise.all([this.account('bulk'), this.account('bulk')]);
    const made = await this.ok(201, 'post', '/bulk-pairings', {
      token: organizer.token,
      body: {
        pairs: [[one.token, two.token]],
        kind: 'kalah',
        startAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    return { path: { id: made.id }, token: organizer.token };
  }

  /** A tournament ada made (and joined, when asked). */
  async tournament(joined = false): Promise<Setup> {
    const made = await this.ok(201, 'post', '/tournaments', {
      token: this.ada.token,
      body: {
        name: this.unique('Cup'),
        kind: 'kalah',
        format: 'swiss',
        timeControl: { type: 'realtime', initialSeconds: 60 },
      },
    });
    if (joined) await this.ok(200, 'post', `/tournaments/${made.id}/join`, { token: this.ada.token });
    return { path: { id: made.id } };
  }

  /** A webhook of ada's, to the test's receiver. */
  async webhook(): Promise<Setup> {
    const made = await this.ok(201, 'post', '/account/webhooks', {
      token: this.ada.token,
      body: { url: this.receiver.url('/ada') },
    });
    return { path: { id: made.id } };
  }

  /** A webhook of ada's that has delivered an event (a challenge she received). */
  async delivered(): Promise<Setup> {
    const id = (await this.webhook()).path!.id as string;
    await this.ok(201, 'post', '/challenges', {
      token: this.grace.token,
      body: { to: this.ada.username, kind: 'kalah' },
    });
    while ((await this.run.app.deliverWebhooks()) > 0);
    const log = await this.ok(200, 'get', `/account/webhooks/${id}/deliveries`, { token: this.ada.token });
    return { path: { id, deliveryId: log.items[0].deliveryId } };
  }

  /** An account of the app (made through the app API), by its external id. */
  async appAccount(): Promise<{ externalId: string; id: string }> {
    const externalId = this.unique('ext');
    const made = await this.ok(201, 'put', `/app/accounts/${externalId}`, { token: this.app.key, body: {} });
    return { externalId, id: made.id };
  }

  /** An app account after a lifecycle action (`suspend`, `ban`), by external id. */
  async moderated(action?: 'suspend' | 'ban'): Promise<Setup> {
    const { externalId } = await this.appAccount();
    if (action) await this.ok(200, 'post', `/app/accounts/${externalId}/${action}`, { token: this.app.key });
    return { path: { externalId } };
  }

  /** An open account after an operator action (`suspend`, `ban`), by id. */
  async operated(action?: 'suspend' | 'ban'): Promise<Setup> {
    const account = await this.account('operated');
    if (action)
      await this.ok(200, 'post', `/admin/accounts/${account.id}/${action}`, { token: OPERATOR_KEY });
    return { path: { accountId: account.id } };
  }

  /** A session of a new app account: its tokens and id. */
  async session(): Promise<{ accessToken: string; refreshToken: string; id: string }> {
    const { externalId } = await this.appAccount();
    const made = await this.ok(201, 'post', `/app/accounts/${externalId}/sessions`, {
      token: this.app.key,
      body: {},
    });
    return { accessToken: made.accessToken, refreshToken: made.refreshToken, id: made.session.id };
  }

  /** The app's webhook, to the receiver, after a challenge between two of its accounts was delivered. */
  async appDelivered(): Promise<Setup> {
    const made = await this.ok(201, 'post', '/app/webhooks', {
      token: this.app.key,
      body: { url: this.receiver.url('/app') },
    });
    const [one, two] = [await this.appAccount(), await this.appAccount()];
    await this.ok(201, 'post', '/challenges', {
      token: this.app.key,
      headers: { 'boardhost-account': one.id },
      body: { to: two.id, kind: 'kalah' },
    });
    while ((await this.run.app.deliverWebhooks()) > 0);
    const log = await this.ok(200, 'get', `/app/webhooks/${made.id}/deliveries`, { token: this.app.key });
    return { path: { id: made.id, deliveryId: log.items[0].deliveryId } };
  }

  /** A private game between two app accounts, and a third account of the app to invite. */
  async privateGame(invited = false): Promise<Setup> {
    const [one, two, watcher] = [await this.appAccount(), await this.appAccount(), await this.appAccount()];
    const challenge = await this.ok(201, 'post', '/challenges', {
      token: this.app.key,
      headers: { 'boardhost-account': one.id },
      body: { to: two.id, kind: 'kalah', visibility: 'private' },
    });
    const { gameId } = await this.ok(200, 'post', `/challenges/${challenge.id}/accept`, {
      token: this.app.key,
      headers: { 'boardhost-account': two.id },
    });
    const path = { gameId, accountId: watcher.id };
    if (invited)
      await this.ok(200, 'put', `/app/games/${gameId}/spectators/${watcher.id}`, { token: this.app.key });
    return { path };
  }

  /** A new app (the operator's), by id. */
  async newApp(): Promise<Setup> {
    return { path: { appId: (await newApp(this.run.app)).id } };
  }
}

/**
 * Per operation: what its documented request needs (see Setup). The operations whose examples need
 * nothing made are `none`. One line per operation; an operation of the document missing here fails.
 */
const none = async (): Promise<Setup> => ({});
const SETUPS: Record<string, (w: World) => Promise<Setup>> = {
  // Games, AI and kinds.
  challengeAi: none,
  createAiGame: none,
  analyze: none,
  listKinds: none,
  describeStart: none,
  createGame: none,
  listGames: none,
  getGame: (w) => w.seatGame({ finished: true }),
  listLegalMoves: (w) => w.seatGame(),
  validateMove: (w) => w.seatGame(),
  submitMove: (w) => w.seatGame(),
  listMoves: (w) => w.seatGame({ moves: ['1', '1'] }),
  resignGame: (w) => w.accountGame({ moves: ['1'] }),
  offerDraw: (w) => w.seatGame(),
  acceptDraw: (w) => w.drawOffered(),
  declineDraw: (w) => w.drawOffered(),
  // The server's abandon period is 1 ms: south played, north is to move, south claims.
  claimDraw: (w) => w.seatGame({ moves: ['1'] }),
  claimVictory: (w) => w.seatGame({ moves: ['1'] }),
  abortGame: (w) => w.seatGame(),
  exportGame: (w) => w.accountGame({ moves: ['1'], finished: true }),
  streamGame: async (w) => ({ ...(await w.seatGame()), token: null, stream: 'text/event-stream' }),
  getTv: none,
  streamTv: async () => ({ stream: 'application/x-ndjson' }),
  streamAccountGames: async () => ({ stream: 'text/event-stream' }),
  // Accounts, tokens, the feed, vacations.
  createAccount: none,
  getAccount: none,
  getMyAccount: none,
  setBotPolicy: async (w) => ({ token: w.hal.token }),
  listTokens: none,
  createToken: none,
  revokeToken: async (w) => ({ path: { tokenId: (await w.token(w.ada, ['game:read'])).id } }),
  listEvents: async () => ({ headers: { accept: 'application/json' } }),
  listMyGames: none,
  exportMyGames: none,
  getVacation: none,
  startVacation: async (w) => ({ token: (await w.account('away')).token }),
  endVacation: none,
  // Challenges, seeks, blocks, bulk pairings.
  createChallenge: none,
  // Takebacks: south played (seat-token Kalah); south asks, or north answers south's request.
  offerTakeback: (w) => w.seatGame({ moves: ['1'] }),
  acceptTakeback: (w) => w.takebackOffered(),
  declineTakeback: (w) => w.takebackOffered(),
  // Rematch: ada and grace's finished game; grace offered first where ada answers.
  offerRematch: (w) => w.accountGame({ finished: true }),
  acceptRematch: (w) => w.rematchOffered(),
  declineRematch: (w) => w.rematchOffered(),
  // Chat: a seat of a seat-token game (chat mode seats) writes, reads and mutes.
  sendChat: (w) => w.seatGame(),
  listChat: (w) => w.seatGame(),
  muteChat: (w) => w.seatGame(),
  unmuteChat: (w) => w.seatGame(),
  // The lobby.
  listSeeks: none,
  streamSeeks: async () => ({ stream: 'text/event-stream' }),
  acceptSeek: (w) => w.seek(),
  listChallenges: none,
  getChallenge: (w) => w.challenge(),
  acceptChallenge: (w) => w.challenge(),
  declineChallenge: (w) => w.challenge(),
  cancelChallenge: (w) => w.challenge('ada'),
  createSeek: async () => ({ status: 201 }),
  cancelSeek: async (w) => {
    const seek = await w.seek();
    return { path: seek.path!, token: seek.owner.token };
  },
  listBlocks: none,
  blockAccount: async (w) => ({ path: { username: (await w.account('blocked')).username } }),
  unblockAccount: async (w) => {
    const { username } = await w.account('unblocked');
    await w.api.expectStatus(204, 'put', `/api/v1/account/blocks/${username}`, { token: w.ada.token });
    return { path: { username } };
  },
  createBulkPairing: async (w) => {
    const [one, two] = await Promise.all([w.account('paired'), w.account('paired')]);
    const organizer = await w.token(w.ada, ['challenge:bulk']);
    return { token: organizer.token, body: { pairs: [[one.token, two.token]] } };
  },
  listBulkPairings: none,
  getBulkPairing: (w) => w.bulk(),
  cancelBulkPairing: (w) => w.bulk(),
  // Webhooks and push bots.
  createWebhook: none,
  listWebhooks: none,
  getWebhook: (w) => w.webhook(),
  deleteWebhook: (w) => w.webhook(),
  listWebhookDeliveries: (w) => w.webhook(),
  redeliverWebhook: (w) => w.delivered(),
  listAppEvents: async () => ({ headers: { accept: 'application/json' } }),
  createAppWebhook: none,
  listAppWebhooks: none,
  getAppWebhook: (w) => w.appDelivered(),
  deleteAppWebhook: (w) => w.appDelivered(),
  listAppWebhookDeliveries: (w) => w.appDelivered(),
  redeliverAppWebhook: (w) => w.appDelivered(),
  getVerification: none,
  scoreVerification: none,
  setPushEndpoint: async (w) => ({ token: w.hal.token }),
  getPushEndpoint: async (w) => {
    const bot = await signUp(w.run.app, 'pusher', 'bot');
    const body = { url: 'https://bot.example/move' };
    await w.api.expectStatus(200, 'put', '/api/v1/account/push-endpoint', { token: bot.token, body });
    return { token: bot.token };
  },
  deletePushEndpoint: async (w) => SETUPS.getPushEndpoint!(w),
  // Tournaments and ratings.
  createTournament: none,
  listTournaments: none,
  myTournaments: none,
  getTournament: (w) => w.tournament(),
  joinTournament: (w) => w.tournament(),
  leaveTournament: (w) => w.tournament(true),
  tournamentStandings: (w) => w.tournament(true),
  exportTournament: (w) => w.tournament(true),
  tournamentStandingsText: (w) => w.tournament(true),
  getRatings: none,
  getRatingHistory: none,
  getLeaderboard: none,
  // Apps, the operator, account lifecycles, sessions.
  inviteSpectator: (w) => w.privateGame(),
  uninviteSpectator: (w) => w.privateGame(true),
  getApp: none,
  ensureAppAccount: async () => ({ status: 201 }),
  getAppAccount: async (w) => ({ path: { externalId: (await w.appAccount()).externalId } }),
  updateAppAccount: async (w) => ({ path: { externalId: (await w.appAccount()).externalId } }),
  eraseAccount: (w) => w.moderated(),
  listAppAccounts: none,
  adminCreateApp: none,
  adminListApps: none,
  adminGetApp: async (w) => ({ path: { appId: w.app.id } }),
  adminUpdateApp: (w) => w.newApp(),
  adminCreateAppKey: (w) => w.newApp(),
  adminListAppKeys: async (w) => ({ path: { appId: w.app.id } }),
  adminRevokeAppKey: async (w) => {
    const { appId } = (await w.newApp()).path!;
    const made = await w.api.expectStatus(201, 'post', `/api/v1/admin/apps/${appId}/keys`, {
      token: OPERATOR_KEY,
      body: {},
    });
    return { path: { appId: appId!, keyId: made.id } };
  },
  adminGetAppUsage: async (w) => ({ path: { appId: w.app.id } }),
  suspendAccount: (w) => w.moderated(),
  unsuspendAccount: (w) => w.moderated('suspend'),
  banAccount: (w) => w.moderated(),
  unbanAccount: (w) => w.moderated('ban'),
  exportAccount: (w) => w.moderated(),
  adminSuspendAccount: (w) => w.operated(),
  adminUnsuspendAccount: (w) => w.operated('suspend'),
  adminBanAccount: (w) => w.operated(),
  adminUnbanAccount: (w) => w.operated('ban'),
  // Open accounts cannot be erased (their id is their username): an app's account.
  adminEraseAccount: async (w) => ({ path: { accountId: (await w.appAccount()).id } }),
  adminExportAccount: (w) => w.operated(),
  createSession: async (w) => ({ path: { externalId: (await w.appAccount()).externalId } }),
  listSessions: async (w) => ({ path: { externalId: (await w.appAccount()).externalId } }),
  revokeSession: async (w) => ({ path: { sessionId: (await w.session()).id } }),
  refreshSession: async (w) => ({ body: { refreshToken: (await w.session()).refreshToken } }),
  signOut: async (w) => ({ token: (await w.session()).accessToken }),
  // Probes and metrics.
  getLiveness: none,
  getHealth: none,
  getReadiness: none,
  getMetrics: none,
};

const resolve = (doc: Json, object: Json): Json =>
  typeof object?.$ref === 'string'
    ? (object.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .reduce((o: Json, p) => o[p.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
    : object;

const pointer = (...parts: string[]) =>
  `openapi.json#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** The documented examples of an operation: its body's, and each parameter's (path and query). */
function examplesOf(doc: Json, op: Operation) {
  const media = op.spec.requestBody?.content?.['application/json'];
  const body = media ? (media.example ?? resolve(doc, media.schema).example) : undefined;
  const params = ((op.spec.parameters ?? []) as Json[]).filter((p) => p.in === 'path' || p.in === 'query');
  const example = (p: Json) => p.example ?? p.schema?.example;
  const missing = [
    ...(media && body === undefined ? ['the request body'] : []),
    ...params
      .filter((p) => (p.in === 'path' || p.required) && example(p) === undefined)
      .map((p) => `${p.in} parameter ${p.name}`),
  ];
  const values = (where: string) =>
    Object.fromEntries(
      params
        .filter((p) => p.in === where && example(p) !== undefined)
        .map((p) => [p.name, String(example(p))]),
    );
  return { body, hasBody: media !== undefined, path: values('path'), query: values('query'), missing };
}

/** The credential an operation takes by default, by its security (a seat token must be given). */
function defaultToken(w: World, op: Operation): string | null | undefined {
  const schemes = ((op.spec.security ?? []) as Json[]).flatMap((s) => Object.keys(s));
  if (schemes.length === 0) return null;
  if (schemes.includes('apiToken')) return w.ada.token;
  if (schemes.includes('appKey')) return w.app.key;
  if (schemes.includes('operatorKey')) return OPERATOR_KEY;
  return undefined;
}

const harness = appHarness();
let world: World;
beforeAll(async () => {
  // The abandon period is 1 ms so that the claims' examples can be sent at once.
  const run = await harness.start('memory', { abandonClaimMs: 1, app: { operatorKey: OPERATOR_KEY } });
  const named = async (username: string, kind: 'human' | 'bot') => {
    const { account, token } = await run.app.services.accounts.createAccount({ username, kind });
    return { username, id: account.id, token: token.token, auth: { authorization: `Bearer ${token.token}` } };
  };
  // The usernames the examples name (ada acts, grace is challenged; hal is a bot); alan is the one
  // createAccount's example makes.
  const [ada, grace, hal] = [
    await named('ada', 'human'),
    await named('grace', 'human'),
    await named('hal', 'bot'),
  ];
  world = new World(run, ada, grace, hal, await newApp(run.app), await startReceiver());
});
afterAll(async () => {
  await world?.receiver.stop();
  await harness.stopAll();
});

const OPERATIONS = operations();

it('has a setup for every operation of the document, and none for an operation it does not have', () => {
  const ids = OPERATIONS.map((op) => op.operationId);
  expect(ids.filter((id) => !(id in SETUPS))).toEqual([]);
  expect(Object.keys(SETUPS).filter((id) => !ids.includes(id))).toEqual([]);
});

it.each(OPERATIONS.map((op) => [op.operationId, op] as const))(
  '%s: its documented example is accepted',
  async (operationId, op) => {
    const doc = world.api.checker.doc;
    const examples = examplesOf(doc, op);
    expect([operationId, examples.missing]).toEqual([operationId, []]);
    if (examples.hasBody) {
      const at = pointer('paths', op.path, op.method, 'requestBody', 'content', 'application/json', 'schema');
      world.api.checker.validate(at, examples.body, `${operationId}'s example body`);
    }
    const setup = await SETUPS[operationId]!(world);
    const successes = Object.keys(op.spec.responses)
      .map(Number)
      .filter((s) => s >= 200 && s < 300);
    const status = setup.status ?? (successes.length === 1 ? successes[0] : undefined);
    expect([operationId, successes]).toEqual([operationId, expect.arrayContaining([status])]);

    const params = { ...examples.path, ...setup.path };
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
    const query = new URLSearchParams({ ...examples.query, ...setup.query }).toString();
    const url = query === '' ? path : `${path}?${query}`;
    const token = setup.token === undefined ? defaultToken(world, op) : setup.token;
    if (token === undefined) throw new Error(`${operationId}: its setup must give the seat token`);
    if (setup.stream) {
      const stream = await world.api.stream(url, setup.stream, token ?? undefined, setup.headers);
      stream.close();
      return;
    }
    const body = examples.hasBody ? { ...examples.body, ...setup.body } : undefined;
    const answer = await world.api.call(op.method, url, {
      ...(token ? { token } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(setup.headers ? { headers: setup.headers } : {}),
    });
    expect([operationId, answer.status, answer.status === status ? null : answer.body]).toEqual([
      operationId,
      status,
      null,
    ]);
  },
);
