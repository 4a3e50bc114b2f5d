import type { Storage } from '../store/store';
import { AccountService } from './accounts';
import { Authenticator } from './auth';
import { ChallengeService } from './challenges';
import { ClockService } from './clocks';
import { FeedService } from './feed';
import { GameService } from './games';

/** Every use case, over one storage and one clock. Transports get this and nothing below it. */
export interface Services {
  readonly games: GameService;
  readonly accounts: AccountService;
  readonly challenges: ChallengeService;
  readonly feed: FeedService;
  /** Deadlines, timeouts, reminders and vacations. */
  readonly clocks: ClockService;
}

export function createServices(storage: Storage, now: () => Date = () => new Date()): Services {
  const auth = new Authenticator(storage.accounts);
  const games = new GameService(storage, auth, now);
  return {
    games,
    accounts: new AccountService(storage, auth, now),
    challenges: new ChallengeService(storage, auth, games, now),
    feed: new FeedService(storage, auth),
    clocks: new ClockService(storage, auth, games, now),
  };
}
