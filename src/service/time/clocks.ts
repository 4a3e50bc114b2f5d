import type { Storage, StoredVacation, VacationWindow } from '../../store/store';
import { playScope, requireScope, type Authenticator, type Credential } from '../accounts/auth';
import { DAY_MS } from './clock';
import { GameError } from '../errors';
import type { GameService } from '../game/service';

/** Vacation days each account may spend per calendar year (UTC). */
export const VACATION_DAYS_PER_YEAR = 14;
/** Vacations that ended longer ago than this no longer matter to any turn and are dropped. */
const VACATION_HISTORY_MS = 60 * DAY_MS;
/** A sweeper hides what it claimed from other nodes this long; if it dies, another retries after. */
const CLAIM_LEASE_MS = 30_000;
/** Games claimed per store round trip, and rounds per sweep at most. */
const SWEEP_BATCH = 100;
const SWEEP_ROUNDS = 10;
/** How often a vacation write retries after losing a compare-and-set. */
const ATTEMPTS = 8;

/** An account's vacation allowance as clients see it. */
export interface VacationView {
  readonly allowanceDays: number;
  /** The calendar year (UTC) the days are counted in: this year. */
  readonly year: number;
  readonly usedDays: number;
  readonly remainingDays: number;
  /** The vacation in progress, if any. */
  readonly current: VacationWindow | null;
}

/**
 * Deadlines, reminders and vacations. Every node sweeps; the store's claims and compare-and-set
 * writes make each timeout and each reminder happen exactly once.
 *
 * Vacation rule: an account may take up to VACATION_DAYS_PER_YEAR whole days per calendar year
 * (UTC), counted in the year the vacation starts, one vacation at a time. A vacation starts at
 * once and lasts the days asked for; ending it early refunds the whole days not yet begun. While
 * it lasts, the clocks of the account's correspondence games stand still when it is to move
 * (deadline and reminder move later by the time spent on vacation during the turn); realtime
 * games are not affected. Its games show it as `seats[].vacationUntil`.
 */
export class ClockService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Ends every game whose deadline has passed by timeout, and sends every reminder that is due.
   * Safe to run on every node at once.
   */
  async sweep(): Promise<{ timeouts: number; reminders: number }> {
    const errors: unknown[] = [];
    const rounds = async (
      claim: (now: number, limit: number, leaseUntil: number) => Promise<string[]>,
      act: (id: string) => Promise<boolean>,
    ): Promise<number> => {
      let done = 0;
      for (let round = 0; round < SWEEP_ROUNDS; round++) {
        const now = this.now().getTime();
        const ids = await claim(now, SWEEP_BATCH, now + CLAIM_LEASE_MS);
        const results = await Promise.allSettled(ids.map(act));
        for (const r of results) {
          if (r.status === 'rejected') errors.push(r.reason);
          else if (r.value) done++;
        }
        if (ids.length < SWEEP_BATCH) break;
      }
      return done;
    };
    const clocks = this.storage.clocks;
    const timeouts = await rounds(
      (now, limit, lease) => clocks.claimDeadlines(now, limit, lease),
      async (id) => (await this.games.time.settleTime(id))?.outcome === 'timeout',
    );
    const reminders = await rounds(
      (now, limit, lease) => clocks.claimReminders(now, limit, lease),
      (id) => this.games.time.remind(id),
    );
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} games failed to sweep`);
    return { timeouts, reminders };
  }

  /**
   * Sweeps now, then again at the earliest deadline or reminder the store knows (or that a write
   * of this node sets), and at least every `intervalMs`. Returns the function that stops it.
   */
  run(intervalMs: number, onError: (error: unknown) => void): () => void {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    /** When the pending timer fires, in real time: timers count real milliseconds, whatever `now` says. */
    let firesAt = Infinity;
    let busy = false;
    let again = false;
    const schedule = (at: number) => {
      if (stopped) return;
      const delay = Math.min(Math.max(0, at - this.now().getTime()), intervalMs);
      const fires = Date.now() + delay;
      if (timer !== undefined && fires >= firesAt) return;
      clearTimeout(timer);
      firesAt = fires;
      timer = setTimeout(() => void tick(), delay).unref();
    };
    const tick = async () => {
      timer = undefined;
      firesAt = Infinity;
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      let next = this.now().getTime() + intervalMs;
      try {
        await this.sweep();
        const due = await this.storage.clocks.nextDue();
        if (due !== null) next = Math.min(next, due);
      } catch (error) {
        onError(error);
      }
      busy = false;
      if (again) next = this.now().getTime();
      again = false;
      schedule(next);
    };
    this.games.time.onDeadline = (at) => schedule(at);
    schedule(this.now().getTime());
    return () => {
      stopped = true;
      clearTimeout(timer);
      this.games.time.onDeadline = undefined;
    };
  }

  /** The caller's vacation allowance (scope game:read). */
  async vacation(credential: Credential): Promise<VacationView> {
    const { account } = await this.auth.requireAccount(credential, 'game:read');
    return this.viewOf(await this.storage.clocks.getVacation(account.id), this.now().getTime());
  }

  /**
   * Starts a vacation of `days` whole days now (scope game:play or bot:play): VACATION_ACTIVE while
   * one lasts, VACATION_ALLOWANCE_EXCEEDED beyond the days left this year.
   */
  async startVacation(credential: Credential, days: number): Promise<VacationView> {
    const caller = await this.auth.requireAccount(credential);
    const account = caller.account;
    // Vacations change the clocks of the account's games: the scope that plays them.
    requireScope(caller, playScope(account));
    if (!Number.isInteger(days) || days < 1 || days > VACATION_DAYS_PER_YEAR) {
      throw new GameError(
        'INVALID_INPUT',
        `days must be a whole number from 1 to ${VACATION_DAYS_PER_YEAR}`,
        {
          field: 'days',
        },
      );
    }
    const view = await this.change(account.id, (record, now) => {
      const current = this.viewOf(record, now);
      if (current.current) {
        throw new GameError('VACATION_ACTIVE', `On vacation until ${current.current.until}`, {
          until: current.current.until,
        });
      }
      if (days > current.remainingDays) {
        throw new GameError(
          'VACATION_ALLOWANCE_EXCEEDED',
          `${days} days asked, ${current.remainingDays} of ${VACATION_DAYS_PER_YEAR} left in ${current.year}`,
          {
            allowanceDays: VACATION_DAYS_PER_YEAR,
            usedDays: current.usedDays,
            remainingDays: current.remainingDays,
          },
        );
      }
      const window = { from: iso(now), until: iso(now + days * DAY_MS) };
      return {
        year: current.year,
        usedDays: current.usedDays + days,
        windows: [...recentWindows(record, now), window],
      };
    });
    await this.refreshGames(account.id);
    return view;
  }

  /** Ends the caller's vacation now, refunding the whole days not begun; nothing when not on vacation. */
  async endVacation(credential: Credential): Promise<VacationView> {
    const caller = await this.auth.requireAccount(credential);
    requireScope(caller, playScope(caller.account));
    let ended = false;
    const view = await this.change(caller.account.id, (record, now) => {
      const current = this.viewOf(record, now).current;
      if (!record || !current) return null;
      const until = Date.parse(current.until);
      const from = Date.parse(current.from);
      const refund = Math.floor((until - now) / DAY_MS);
      const windows = recentWindows(record, now).flatMap((w) =>
        w.from === current.from ? (now > from ? [{ from: w.from, until: iso(now) }] : []) : [w],
      );
      ended = true;
      const sameYear = record.year === new Date(from).getUTCFullYear();
      return {
        year: record.year,
        usedDays: sameYear ? Math.max(0, record.usedDays - refund) : record.usedDays,
        windows,
      };
    });
    if (ended) await this.refreshGames(caller.account.id);
    return view;
  }

  /** Read, change, compare-and-set the account's vacation record, retrying lost races. */
  private async change(
    account: string,
    compute: (
      record: StoredVacation | undefined,
      now: number,
    ) => Pick<StoredVacation, 'year' | 'usedDays' | 'windows'> | null,
  ): Promise<VacationView> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const record = await this.storage.clocks.getVacation(account);
      const now = this.now().getTime();
      const change = compute(record, now);
      if (!change) return this.viewOf(record, now);
      const version = record?.version ?? 0;
      const next: StoredVacation = { account, version: version + 1, ...change };
      if (await this.storage.clocks.saveVacation(next, version)) return this.viewOf(next, now);
    }
    throw new GameError('VERSION_CONFLICT', 'The vacation is changing too fast; read it and retry');
  }

  /** Every ongoing correspondence game of the account takes the new vacation into account. */
  private async refreshGames(account: string): Promise<void> {
    let before: number | undefined;
    for (;;) {
      const page = await this.storage.games.list({ account, status: 'ongoing' }, 100, before);
      const settle = page.items.filter((g) => g.timeControl?.type === 'correspondence');
      await Promise.all(settle.map((g) => this.games.time.settleTime(g.id)));
      if (page.next === null) return;
      before = page.next;
    }
  }

  private viewOf(record: StoredVacation | undefined, now: number): VacationView {
    const year = new Date(now).getUTCFullYear();
    const usedDays = record && record.year === year ? record.usedDays : 0;
    const current = record?.windows.find((w) => Date.parse(w.from) <= now && now < Date.parse(w.until));
    return {
      allowanceDays: VACATION_DAYS_PER_YEAR,
      year,
      usedDays,
      remainingDays: Math.max(0, VACATION_DAYS_PER_YEAR - usedDays),
      current: current ? { from: current.from, until: current.until } : null,
    };
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The record's windows that may still matter to a turn (ended less than 60 days ago). */
function recentWindows(record: StoredVacation | undefined, now: number): VacationWindow[] {
  return (record?.windows ?? []).filter((w) => Date.parse(w.until) > now - VACATION_HISTORY_MS);
}
