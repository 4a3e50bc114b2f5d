import type { Storage } from '../store/store';
import { AccountService } from './accounts';
import { Authenticator } from './auth';
import { ChallengeService } from './challenges';
import { ClockService } from './clocks';
import { FeedService } from './feed';
import { GameListService } from './game-lists';
import { GameService } from './games';
import type { WebhookOptions } from './webhook-worker';
import { WebhookService } from './webhooks';

/** Every use case, over one storage and one clock. Transports get this and nothing below it. */
export interface Services {
  readonly games: GameService;
  /** The account's own game lists and their export. */
  readonly lists: GameListService;
  readonly accounts: AccountService;
  readonly challenges: ChallengeService;
  readonly feed: FeedService;
  readonly webhooks: WebhookService;
  /** Deadlines, timeouts, reminders and vacations. */
  readonly clocks: ClockService;
}

export interface ServiceOptions {
  readonly webhooks?: WebhookOptions;
}

export function createServices(
  storage: Storage,
  now: () => Date = () => new Date(),
  options: ServiceOptions = {},
): Services {
  const auth = new Authenticator(storage.accounts);
  const games = new GameService(storage, auth, now);
  return {
    games,
    lists: new GameListService(storage, auth, games),
    accounts: new AccountService(storage, auth, now),
    challenges: new ChallengeService(storage, auth, games, now),
    feed: new FeedService(storage, auth),
    webhooks: new WebhookService(storage, auth, now, options.webhooks),
    clocks: new ClockService(storage, auth, games, now),
  };
}
