// The tournament director: every node sweeps the tournaments that are due (the store's due index:
// ongoing ones, open ones that are full, at their start time or expiry, never the idle rest); a lease keeps one
// tournament to one node at a time, the document's compare-and-set makes each step happen once,
// and game ids derived from (tournament, round, board, leg) make each game be created once.
import { randomBytes } from 'node:crypto';
import type { Notice, StoredGame, StoredTournament, TournamentPairing } from '../../store/store';
import type { GameService } from '../game/service';
import { seatRatings } from '../ratings/results';
import { feature } from '../game/tv';
import { gameNotice } from './views';
import { legPoints, refreshForfeits, roundRobinPairings, swissPairings, seedOrder } from './rounds';
import { standings } from './standings';
import { appOfAccountId, type Storage } from '../../store/store';

export interface DirectorOptions {
  /** How long a node holds a tournament while it directs it (default 30 s). */
  readonly leaseMs?: number;
  /** Tournaments looked at per sweep (default 200). */
  readonly batch?: number;
  /** An open tournament without a start time still open this long after its creation is cancelled (default 48 h). */
  readonly openExpiryMs?: number;
  /** Open tournaments one account may have created and not yet finished (default 10). */
  readonly openPerAccount?: number;
}

export const DEFAULT_OPEN_EXPIRY_MS = 48 * 60 * 60 * 1000;
export const DEFAULT_OPEN_PER_ACCOUNT = 10;

const ATTEMPTS = 5;

export class TournamentDirector {
  private readonly node = randomBytes(6).toString('base64url');
  private readonly leaseMs: number;
  private readonly batch: number;
  readonly openExpiryMs: number;
  readonly openPerAccount: number;

  constructor(
    private readonly storage: Storage,
    private readonly games: GameService,
    private readonly now: () => Date = () => new Date(),
    options: DirectorOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.batch = options.batch ?? 200;
    this.openExpiryMs = options.openExpiryMs ?? DEFAULT_OPEN_EXPIRY_MS;
    this.openPerAccount = options.openPerAccount ?? DEFAULT_OPEN_PER_ACCOUNT;
  }

  /** When an open tournament created at `createdAt` without a start time is cancelled. */
  expiryOf(createdAt: string): string {
    return new Date(Date.parse(createdAt) + this.openExpiryMs).toISOString();
  }

  /** Directs every due tournament once (up to the batch); safe on every node at once. */
  async sweep(): Promise<number> {
    // Those answered go back at now (after the rest due now): an ongoing one is looked at each sweep.
    const ids = await this.storage.tournaments.due(this.now().getTime(), this.batch, 0);
    let acted = 0;
    const errors: unknown[] = [];
    for (const id of ids) {
      try {
        if (await this.advance(id)) acted++;
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
    return acted;
  }

  /** Sweeps every `intervalMs` until the returned function is called. */
  run(intervalMs: number, onError: (error: unknown) => void): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.sweep()
        .catch(onError)
        .finally(() => (running = false));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** One step of a tournament, under its lease: true when something changed. */
  async advance(id: string): Promise<boolean> {
    const lease = `tournament-director:${id}`;
    const claim = await this.storage.idempotency.claim(lease, this.node, this.leaseMs);
    if (claim.status !== 'claimed') return false;
    try {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const t = await this.storage.tournaments.get(id);
        if (!t) return false;
        const step = await this.step(t);
        if (step === 'same') return false;
        if (step === 'changed') return true;
      }
      return false;
    } finally {
      await this.storage.idempotency.release(lease).catch(() => undefined);
    }
  }

  /** 'same': nothing to do; 'changed': done; 'retry': lost a compare-and-set. */
  private async step(t: StoredTournament): Promise<'same' | 'changed' | 'retry'> {
    const at = this.now();
    if (t.status === 'open') {
      const due =
        (t.startsAt !== null && at.getTime() >= Date.parse(t.startsAt)) || t.players.length >= t.maxPlayers;
      const expires = t.startsAt === null ? (t.expiresAt ?? this.expiryOf(t.createdAt)) : null;
      const expired = expires !== null && at.getTime() >= Date.parse(expires);
      if (!due && !expired) return 'same';
      if (!due || t.players.length < Math.max(2, t.minPlayers)) {
        const next = this.next(t, { status: 'cancelled', finishedAt: at.toISOString() });
        return this.write(t, next, [this.notice(next, 'tournament.cancelled', {})]);
      }
      return this.startRound(this.next(t, { status: 'ongoing', startedAt: at.toISOString() }), t, 1);
    }
    if (t.status !== 'ongoing') return 'same';
    const pairings = t.pairings.filter((p) => p.round === t.round);
    // One read per game of the round: a missing game (its creator died after the round's write) is
    // created now; the round is over once every game is.
    const results: Record<string, readonly [number, number]> = {};
    const noShows: Record<string, string> = {};
    const missing = new Set<TournamentPairing>();
    let over = true;
    for (const p of pairings) {
      for (const [leg, id] of p.games.entries()) {
        const game = await this.storage.games.get(id);
        if (!game) missing.add(p);
        if (!game || game.status !== 'finished' || !game.outcome) {
          over = false;
          continue;
        }
        results[id] = legPoints(game.outcome, leg);
        const noShow = noShowOf(game);
        if (noShow !== undefined) noShows[id] = noShow;
      }
    }
    if (missing.size > 0) await this.createGames(t, [...missing]);
    if (!over) return 'same';
    const done = this.next(t, {
      results: { ...t.results, ...results },
      ...(Object.keys(noShows).length > 0 ? { noShows: { ...t.noShows, ...noShows } } : {}),
    });
    const active = t.players.filter(
      (p) => p.withdrawnAfterRound === undefined || p.withdrawnAfterRound > t.round,
    );
    if (t.round >= t.rounds || (t.format === 'swiss' && active.length < 2)) {
      const next = { ...done, status: 'finished' as const, finishedAt: at.toISOString() };
      const table = standings(next, new Map(Object.entries(next.results)));
      const top = table.map((r) => ({ rank: r.rank, account: r.account, score: r.score }));
      return this.write(t, next, [this.notice(next, 'tournament.finished', { standings: top })]);
    }
    return this.startRound(done, t, t.round + 1);
  }

  /** Writes round `round`'s pairings (made now) over `t`, then creates its games and tells the players. */
  private async startRound(
    base: StoredTournament,
    stored: StoredTournament,
    round: number,
  ): Promise<'changed' | 'retry'> {
    let pairings: TournamentPairing[];
    let rounds = base.rounds;
    if (base.format === 'round-robin') {
      const all = round === 1 ? roundRobinPairings(base) : base.pairings;
      rounds = Math.max(0, ...all.map((p) => p.round));
      pairings = refreshForfeits({ ...base, pairings: all }, round);
    } else {
      pairings = [...base.pairings, ...swissPairings(base, round, new Map(Object.entries(base.results)))];
    }
    const next: StoredTournament = {
      ...base,
      rounds,
      round,
      pairings,
      ...(round === 1 ? { players: seedOrder(base.players) } : {}),
    };
    const these = pairings.filter((p) => p.round === round);
    const notices = [
      ...(round === 1 ? [this.notice(next, 'tournament.started', {})] : []),
      this.notice(next, 'tournament.round_started', {
        pairings: these.map((p) => ({ board: p.board, first: p.first, second: p.second, games: p.games })),
      }),
    ];
    const written = await this.write(stored, next, notices);
    if (written === 'changed') await this.createGames(next, these);
    return written;
  }

  /** Creates the pairings' games that do not exist yet (each once, whoever runs this). */
  private async createGames(t: StoredTournament, pairings: readonly TournamentPairing[]): Promise<void> {
    for (const p of pairings) {
      if (p.second === null) continue;
      for (const [leg, id] of p.games.entries()) {
        if (await this.storage.games.get(id)) continue;
        const accounts: [string, string] = leg === 0 ? [p.first, p.second] : [p.second, p.first];
        const at = this.now().toISOString();
        const game: StoredGame = {
          ...this.games.newGame({
            id,
            kind: t.kind,
            options: t.options,
            first: 0,
            accounts,
            timeControl: t.timeControl,
            at,
            ...(t.timeControl.type === 'correspondence'
              ? { vacations: await this.games.time.vacationsFor(accounts) }
              : {}),
            ...(t.rated ? { rated: await seatRatings(this.storage, accounts, t, at) } : {}),
            // The players' app (a tournament's players are of one pool).
            audience: await this.games.audience(appOfAccountId(p.first)),
          }),
          source: { type: 'tournament', id: t.id, round: p.round },
        };
        try {
          await this.storage.games.create(game, [gameNotice(accounts, at, this.games.headView(game))]);
          await feature(this.storage, game);
        } catch (error) {
          // Another node (or an earlier try) created it in between: that is the game.
          if (!(await this.storage.games.get(id))) throw error;
        }
      }
    }
  }

  private next(t: StoredTournament, changes: Partial<StoredTournament>): StoredTournament {
    return { ...t, ...changes, version: t.version + 1, updatedAt: this.now().toISOString() };
  }

  private async write(
    stored: StoredTournament,
    next: StoredTournament,
    notices: Notice[],
  ): Promise<'changed' | 'retry'> {
    // The notices go with the write (its outbox entry): told once, by the writer that won the
    // compare-and-set, even if this node dies right after.
    const written = await this.storage.tournaments.update(
      { ...next, version: stored.version + 1 },
      stored.version,
      notices,
    );
    return written.status === 'updated' ? 'changed' : 'retry';
  }

  private notice(t: StoredTournament, type: Notice['type'], data: Record<string, unknown>): Notice {
    const to = t.players.map((p) => p.account);
    return {
      to,
      type,
      at: this.now().toISOString(),
      data: {
        tournament: {
          id: t.id,
          name: t.name,
          kind: t.kind,
          format: t.format,
          status: t.status,
          round: t.round,
          rounds: t.rounds,
        },
        ...data,
      },
    };
  }
}

/** The account that lost a game on time without ever moving (a forfeit), if any. */
export function noShowOf(game: StoredGame): string | undefined {
  const { outcome } = game;
  if (outcome?.reason !== 'timeout' || outcome.winner === undefined) return undefined;
  const loser = (1 - outcome.winner) as 0 | 1;
  if (game.moves.some((m) => m.seat === loser)) return undefined;
  return game.seats[loser]?.account ?? undefined;
}
