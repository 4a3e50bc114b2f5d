// What each operation may answer when app A (or anonymous) names app B's objects: the table the
// isolation test walks. Every REST operation and GraphQL root field needs a rule, here by name or by
// its path/name family (so operations added later are covered at once); one without fails the test.
import type { World } from './isolation-world';

/**
 * public: anyone's read or A's own create; may answer 2xx. own: the caller's own things; may answer
 * 2xx. game-read: reads a game; B's island public game may be read (2xx naming B), its private one
 * never. refused: names B's object; never 2xx. Every 2xx answer of every rule must not name B (but a
 * public game's reads). unchecked: its answer is the operator's (metrics), its status still < 500.
 */
export type Rule = 'public' | 'own' | 'game-read' | 'refused' | 'unchecked';

const REST_RULES: Record<string, Rule> = {
  listKinds: 'public',
  describeStart: 'public',
  getTv: 'public',
  streamTv: 'public',
  listGames: 'public',
  getLeaderboard: 'public',
  listTournaments: 'public',
  getVerification: 'public',
  scoreVerification: 'public',
  getLiveness: 'public',
  getHealth: 'public',
  getReadiness: 'public',
  getMetrics: 'unchecked',
  createAccount: 'public',
  createGame: 'public',
  createAiGame: 'public',
  challengeAi: 'own',
  getGame: 'game-read',
  listLegalMoves: 'game-read',
  validateMove: 'game-read',
  listMoves: 'game-read',
  exportGame: 'game-read',
  streamGame: 'game-read',
  listChat: 'game-read',
  analyze: 'game-read',
  getMyAccount: 'own',
  setBotPolicy: 'own',
  listTokens: 'own',
  createToken: 'own',
  listEvents: 'own',
  listMyGames: 'own',
  exportMyGames: 'own',
  getVacation: 'own',
  startVacation: 'own',
  endVacation: 'own',
  listChallenges: 'own',
  createSeek: 'own',
  // The lobby lists the caller's pool (anonymous: the open pool), never an island app's seeks.
  listSeeks: 'public',
  streamSeeks: 'public',
  listBlocks: 'own',
  listBulkPairings: 'own',
  createWebhook: 'own',
  listWebhooks: 'own',
  setPushEndpoint: 'own',
  getPushEndpoint: 'own',
  deletePushEndpoint: 'own',
  createTournament: 'own',
  myTournaments: 'own',
};

/** Families of operations (new ones land in them): the app's own API, the operator's, sessions. */
const REST_FAMILIES: ReadonlyArray<readonly [RegExp, Rule]> = [
  [/^\/api\/v1\/admin(\/|$)/, 'refused'],
  [/^\/api\/v1\/app(\/|$)/, 'own'],
  [/^\/api\/v1\/sessions?(\/|$)/, 'own'],
];

/** The rule of a REST operation: by its id, else its path's family; undefined: none (the test fails). */
export function restRule(operationId: string, path: string): Rule | undefined {
  return (
    REST_RULES[operationId] ?? REST_FAMILIES.find(([re]) => re.test(path))?.[1] ?? refusedRest(operationId)
  );
}

/** Every other existing operation names B's object in its path or body: refused. */
function refusedRest(operationId: string): Rule | undefined {
  return REFUSED_REST.has(operationId) ? 'refused' : undefined;
}
const REFUSED_REST = new Set([
  'submitMove',
  'offerTakeback',
  'acceptTakeback',
  'declineTakeback',
  'offerRematch',
  'acceptRematch',
  'declineRematch',
  'acceptSeek',
  'resignGame',
  'offerDraw',
  'acceptDraw',
  'declineDraw',
  'claimDraw',
  'claimVictory',
  'abortGame',
  'sendChat',
  'muteChat',
  'unmuteChat',
  'getAccount',
  'revokeToken',
  'createChallenge',
  'getChallenge',
  'acceptChallenge',
  'declineChallenge',
  'cancelChallenge',
  'cancelSeek',
  'blockAccount',
  'unblockAccount',
  'createBulkPairing',
  'getBulkPairing',
  'cancelBulkPairing',
  'getWebhook',
  'deleteWebhook',
  'listWebhookDeliveries',
  'redeliverWebhook',
  'getTournament',
  'joinTournament',
  'leaveTournament',
  'tournamentStandings',
  'exportTournament',
  'tournamentStandingsText',
  'getRatings',
  'getRatingHistory',
  'streamAccountGames',
]);

const GRAPHQL_RULES: Record<string, Rule> = {
  analysis: 'game-read',
  kinds: 'public',
  game: 'game-read',
  games: 'public',
  legalMoves: 'game-read',
  validateMove: 'game-read',
  exportGame: 'game-read',
  gameUpdated: 'game-read',
  gameChat: 'game-read',
  tv: 'public',
  seeks: 'public',
  lobby: 'public',
  me: 'own',
  myTokens: 'own',
  myBlocks: 'own',
  myBulkPairings: 'own',
  myChallenges: 'own',
  events: 'own',
  pushEndpoint: 'own',
  webhooks: 'own',
  myGames: 'own',
  myVacation: 'own',
  tournaments: 'public',
  myTournaments: 'own',
  leaderboard: 'public',
  challengeAi: 'own',
  createAiGame: 'public',
  createGame: 'public',
  createAccount: 'public',
  createToken: 'own',
  setBotPolicy: 'own',
  createSeek: 'own',
  setPushEndpoint: 'own',
  deletePushEndpoint: 'own',
  createWebhook: 'own',
  startVacation: 'own',
  endVacation: 'own',
  createTournament: 'own',
};

/** Root fields that name B's object in their arguments. */
const REFUSED_GRAPHQL = new Set([
  'account',
  'offerTakeback',
  'acceptTakeback',
  'declineTakeback',
  'offerRematch',
  'acceptRematch',
  'declineRematch',
  'acceptSeek',
  'bulkPairing',
  'challenge',
  'webhook',
  'webhookDeliveries',
  'tournament',
  'tournamentStandings',
  'submitMove',
  'resign',
  'abortGame',
  'sendChat',
  'muteChat',
  'unmuteChat',
  'claimDraw',
  'claimVictory',
  'offerDraw',
  'acceptDraw',
  'declineDraw',
  'revokeToken',
  'blockAccount',
  'unblockAccount',
  'createBulkPairing',
  'cancelBulkPairing',
  'createChallenge',
  'acceptChallenge',
  'declineChallenge',
  'cancelChallenge',
  'cancelSeek',
  'deleteWebhook',
  'redeliverWebhook',
  'joinTournament',
  'leaveTournament',
]);

/** The GraphQL families of the apps' API (APPS.md): the app's own fields, sessions, lifecycle, spectators. */
const GRAPHQL_FAMILIES: ReadonlyArray<readonly [RegExp, Rule]> = [
  [/^(app|appAccounts?|ensureAppAccount|updateAppAccount|appEvents)$/, 'own'],
  [/[Aa]ppWebhook/, 'own'],
  [/[Ss]ession|^signOut$/, 'own'],
  // By external id, the app's own accounts (B's ids name none of A's): the answer must not name B.
  [/^(suspend|unsuspend|ban|unban|erase|export)Account$/, 'own'],
  [/Spectator/, 'refused'],
];

export function graphqlRule(field: string): Rule | undefined {
  return (
    GRAPHQL_RULES[field] ??
    (REFUSED_GRAPHQL.has(field) ? 'refused' : undefined) ??
    GRAPHQL_FAMILIES.find(([re]) => re.test(field))?.[1]
  );
}

/** Whether an `id` parameter of this path or field names a game (else a challenge, tournament…). */
export function idIsGame(where: string): boolean {
  return !/challenge|tournament|bulk|webhook|seek|token/i.test(where);
}

/** The values a path parameter or argument takes to name B's objects (several: each is tried). */
export function valuesOf(name: string, where: string, w: World): readonly string[] | undefined {
  const games = [w.ids.privateGame, w.ids.publicGame];
  const lower = where.toLowerCase();
  switch (name) {
    case 'id':
      if (/challenge/.test(lower)) return [w.ids.challenge, w.ids.openChallenge];
      if (/tournament/.test(lower)) return [w.ids.tournament];
      if (/bulk/.test(lower)) return [w.ids.bulk];
      if (/webhook/.test(lower)) return [w.ids.webhook];
      if (/seek/.test(lower)) return [w.ids.seek];
      if (/token/.test(lower)) return [w.b1Session.tokenId];
      return games;
    case 'gameId':
      return games;
    case 'username':
    case 'accountId':
    case 'account':
      return [w.b1.id, w.b1.username];
    case 'externalId':
      return [w.b1.externalId];
    case 'sessionId':
      return [w.b1Session.sessionId];
    case 'appId':
      return [w.b.id];
    case 'keyId':
      return [w.ids.keyId];
    case 'tokenId':
      return [w.b1Session.tokenId];
    case 'deliveryId':
      return ['1'];
    case 'kind':
      return ['kalah'];
    case 'speed':
      return ['realtime'];
    default:
      return undefined;
  }
}

/** REST bodies that name B's objects (the rest send `{}`, or a game variant's `gameId`). */
export function restBody(operationId: string, w: World, game: string): unknown {
  switch (operationId) {
    case 'createChallenge':
      return { to: w.b1.id, kind: 'kalah' };
    case 'createSeek':
      return { kind: 'kalah' };
    case 'createBulkPairing':
      return { kind: 'kalah', pairs: [[w.b1Session.token, w.b2Session.token]] };
    case 'submitMove':
    case 'validateMove':
      return { move: '1' };
    case 'analyze':
      return { gameId: game, depth: 2 };
    default:
      return {};
  }
}

/** REST query strings that name B's accounts. */
export function restQuery(operationId: string, w: World): Record<string, string> {
  if (operationId === 'listGames') return { account: w.b1.id };
  if (operationId === 'streamAccountGames') return { accounts: w.b1.id };
  return {};
}
