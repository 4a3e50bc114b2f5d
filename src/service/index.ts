import { AccountGames } from './game/account-games';
import { AiPool, type AiPoolOptions } from '../ai/pool';
import type { Storage } from '../store/store';
import { AiGames } from './bots/ai-games';
import { AnalysisService, DEFAULT_ANALYSIS_LIMITS, type AnalysisLimits } from './bots/analysis';
import { AccountService } from './accounts/service';
import { AppService } from './apps/service';
import { Pools } from './apps/pools';
import { LifecycleService } from './apps/lifecycle';
import { GameSpectators } from './game/spectators';
import { ChatService } from './game/chat';
import { SessionService } from './apps/sessions';
import { AppOrigins } from './apps/origins';
import { AppAccountService } from './apps/accounts';
import { AppUsage } from './apps/usage';
import { Authenticator } from './accounts/auth';
import { BulkService, type BulkOptions } from './challenges/bulks';
import { BlockService } from './accounts/blocks';
import { ChallengeService } from './challenges/service';
import { ClockService } from './time/clocks';
import { appFeedOwnerOf, FeedService } from './delivery/feed';
import { withRenderedFeed } from './delivery/feed-render';
import type { GameWriter } from './game/writer';
import { GameListService } from './game/lists';
import { GameService } from './game/service';
import { RematchService } from './game/rematch';
import { DEFAULT_QUOTAS, type Quotas } from './accounts/quotas';
import { RatingService } from './ratings/service';
import { SeekService } from './challenges/seeks';
import { LobbyService } from './challenges/lobby';
import { PushBotService, type PushOptions } from './bots/push-bots';
import { DEFAULT_STREAM_LIMITS, StreamSlots, type StreamLimits } from './delivery/stream-slots';
import { TokenStreams } from './accounts/token-streams';
import { RulesVerification } from './game/verification';
import { TurnDriver, type TurnDriverOptions } from './bots/turn-driver';
import { TournamentDirector, type DirectorOptions } from './tournaments/director';
import { TournamentService } from './tournaments/service';
import type { WebhookOptions } from './delivery/webhook-worker';
import { TvService } from './game/tv';
import { appWebhookOwner, WebhookService } from './delivery/webhooks';

/** Every use case, over one storage and one clock. Transports get this and nothing below it. */
export interface Services {
  readonly games: GameService;
  /** Every write of a game's seats, as commands (game/commands.ts): what the transports call. */
  readonly writer: GameWriter;
  /** Rematches of finished games: offer, accept, decline (see game/rematch.ts). */
  readonly rematch: RematchService;
  /** The account's own game lists and their export. */
  readonly lists: GameListService;
  /** Private games' spectators, invited by the game's app (see game/spectators.ts). */
  readonly spectators: GameSpectators;
  /** TV: each kind's featured game, followed live (one follower per kind and node). */
  readonly tv: TvService;
  /** Each game's chat: messages, mutes, delivery (see game/chat.ts). */
  readonly chat: ChatService;
  /** The games of chosen accounts, live (start and end only: public). */
  readonly accountGames: AccountGames;
  readonly accounts: AccountService;
  /** Apps and their keys (the operator's; see apps/service.ts). */
  readonly apps: AppService;
  /** Who sees and plays whom: the open pool, or an app's own (see apps/pools.ts). */
  readonly pools: Pools;
  /** Suspend, ban, erase and export accounts (the app's own, or the operator's: apps/lifecycle.ts). */
  readonly lifecycle: LifecycleService;
  /** Apps' sessions: minted by a key for an account, refreshed with rotation (see apps/sessions.ts). */
  readonly sessions: SessionService;
  /** The origins apps let browsers call from (CORS per app; a per-node cache, see apps/origins.ts). */
  readonly appOrigins: AppOrigins;
  /** Apps' quotas and usage counts, and the app of a credential (see apps/usage.ts). */
  readonly appUsage: AppUsage;
  /** The accounts an app makes and manages by its own ids (see apps/accounts.ts). */
  readonly appAccounts: AppAccountService;
  readonly challenges: ChallengeService;
  /** Blocks between accounts. */
  readonly blocks: BlockService;
  /** Seeks: paired with another account's seek for the same game. */
  readonly seeks: SeekService;
  /** The waiting seeks listed, followed live and taken (challenges/lobby.ts). */
  readonly lobby: LobbyService;
  /** Bulk pairings: many games between pairs of accounts in one all-or-nothing call (start() sweeps). */
  readonly bulks: BulkService;
  readonly feed: FeedService;
  readonly webhooks: WebhookService;
  /** An app's feed (every event of its accounts) and its webhook endpoints, for its key (app:webhooks). */
  readonly appFeed: FeedService;
  readonly appWebhooks: WebhookService;
  /** Deadlines, timeouts, reminders and vacations. */
  readonly clocks: ClockService;
  /** This node's open streams by API token, ended when it is revoked (start() before serving). */
  readonly tokenStreams: TokenStreams;
  /** This node's open streams per client address and account/token (REST streams and subscriptions). */
  readonly streamSlots: StreamSlots;
  /** Rules verification for bot authors: seeded positions and moves, answers scored. */
  readonly verification: RulesVerification;
  /** The built-in AI opponents: their accounts, AI games and their move provider. */
  readonly ai: AiGames;
  readonly analysis: AnalysisService;
  /** This node's search threads (closed with the app). */
  readonly aiPool: AiPool;
  /** Plays the turns of accounts with an automatic mover (the AI levels; see bots/turn-driver.ts). */
  readonly turns: TurnDriver;
  /** Push-mode bots: accounts' move endpoints, a provider of the turn driver. */
  readonly push: PushBotService;
  /** Tournaments (round robin, Swiss) and their director (`tournaments.director`). */
  readonly tournaments: TournamentService;
  /** Ratings per perf, their histories and the leaderboards. */
  readonly ratings: RatingService;
}

export interface ServiceOptions {
  readonly webhooks?: WebhookOptions;
  /** Unlimited games: how long the player to move may stay away before the other may claim (3 days). */
  readonly abandonClaimMs?: number;
  /** The engine-state cache budget in bytes (default 64 MiB). */
  readonly engineCacheBytes?: number;
  /** Per-account and per-address quotas (default: DEFAULT_QUOTAS). */
  readonly quotas?: Quotas;
  /** false: open sign-up is closed (SIGNUP_CLOSED); default true. */
  readonly openSignup?: boolean;
  /** false: chat is off on this server (CHAT=off: CHAT_DISABLED, `by` server); default true. */
  readonly chat?: boolean;
  /** Open streams per address and per account/token, and the stalled-reader bound (DEFAULT_STREAM_LIMITS). */
  readonly streams?: StreamLimits;
  /** Told of failures nobody waits for (a token's last-use write, a turn the driver failed to play). */
  readonly onBackgroundError?: (error: unknown) => void;
  /** The AI's threads, queue and per-caller cap (default DEFAULT_AI_POOL). */
  readonly aiPool?: AiPoolOptions;
  /** Analysis time limit and rate (default DEFAULT_ANALYSIS_LIMITS). */
  readonly analysis?: AnalysisLimits;
  /** The turn driver's sweep and lease (its onError defaults to onBackgroundError). */
  readonly turns?: TurnDriverOptions;
  /** Push-mode bots' requests (allowPrivate defaults to the webhooks'). */
  readonly push?: PushOptions;
  /** Bulk pairings' lease and sweep (its onError defaults to onBackgroundError). */
  readonly bulks?: BulkOptions;
  /** The tournament director's lease and batch. */
  readonly tournaments?: DirectorOptions;
  /** How many waiting seeks a live lobby sends when it opens (default LOBBY_SNAPSHOT_MAX). */
  readonly lobbySnapshotMax?: number;
}

export function createServices(
  stored: Storage,
  now: () => Date = () => new Date(),
  options: ServiceOptions = {},
): Services {
  // Every service reads feed events rendered from their stored (slim) form.
  const storage = withRenderedFeed(stored);
  const auth = new Authenticator(storage.accounts, storage.apps, now, options.onBackgroundError);
  const quotas = options.quotas ?? DEFAULT_QUOTAS;
  const pools = new Pools(storage, () => now().getTime());
  const appUsage = new AppUsage(storage, Date.now, options.onBackgroundError);
  const games = new GameService(
    storage,
    auth,
    now,
    quotas,
    options.engineCacheBytes,
    options.abandonClaimMs,
    pools,
    appUsage,
  );
  const aiPool = new AiPool(options.aiPool);
  const onError = options.onBackgroundError;
  // The turn driver reads only the game id and status of its events: it needs them unrendered.
  const turns = new TurnDriver(stored, games, { ...(onError ? { onError } : {}), ...options.turns });
  const allowPrivate = options.webhooks?.allowPrivate;
  const ports = options.webhooks?.ports;
  const director = new TournamentDirector(storage, games, now, options.tournaments);
  const challenges = new ChallengeService(storage, auth, games, now, quotas, pools);
  const seeks = new SeekService(storage, auth, games, now, quotas, pools);
  const webhooks = new WebhookService(storage, auth, now, options.webhooks);
  return {
    games,
    tournaments: new TournamentService(
      storage,
      auth,
      games,
      director,
      now,
      onError ?? (() => undefined),
      pools,
    ),
    writer: games.writer,
    rematch: new RematchService(storage, auth, games, now, quotas),
    lists: new GameListService(storage, auth, games),
    spectators: new GameSpectators(storage, auth, games),
    tv: new TvService(storage, games),
    chat: new ChatService(storage, auth, games, now, { enabled: options.chat ?? true }),
    accountGames: new AccountGames(storage, auth, pools),
    accounts: new AccountService(storage, auth, now, quotas, options.openSignup ?? true, pools),
    apps: new AppService(storage, now),
    pools,
    lifecycle: new LifecycleService(storage, auth, games, challenges, now),
    sessions: new SessionService(storage, auth, now),
    appOrigins: new AppOrigins(storage, () => now().getTime()),
    appUsage,
    appAccounts: new AppAccountService(storage, auth, appUsage, now),
    challenges,
    blocks: new BlockService(storage, auth, challenges, now, quotas, pools),
    seeks,
    lobby: new LobbyService(storage, auth, games, seeks, now, quotas, pools, options.lobbySnapshotMax),
    bulks: new BulkService(
      storage,
      auth,
      games,
      now,
      quotas,
      { ...(onError ? { onError } : {}), ...options.bulks },
      pools,
    ),
    feed: new FeedService(storage, auth),
    webhooks,
    appFeed: new FeedService(storage, auth, appFeedOwnerOf(auth)),
    appWebhooks: webhooks.withOwners(appWebhookOwner(auth), auth),
    clocks: new ClockService(storage, auth, games, now),
    tokenStreams: new TokenStreams(storage.events, storage.accounts, onError, now, storage.apps),
    streamSlots: new StreamSlots(options.streams ?? DEFAULT_STREAM_LIMITS, storage.accounts),
    verification: new RulesVerification(games),
    ai: new AiGames(storage, auth, games, aiPool, now, quotas),
    analysis: new AnalysisService(storage, auth, games, aiPool, options.analysis ?? DEFAULT_ANALYSIS_LIMITS),
    aiPool,
    turns,
    push: new PushBotService(storage, auth, games, turns, now, {
      ...(allowPrivate === undefined ? {} : { allowPrivate }),
      ...(ports === undefined ? {} : { ports }),
      ...options.push,
    }),
    ratings: new RatingService(storage, games, now, pools, auth),
  };
}
