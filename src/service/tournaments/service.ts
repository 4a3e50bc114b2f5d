// Tournaments: create, join, leave, read, list, standings. The director (director.ts) starts
// them, pairs the rounds and creates the games; standings are computed, never stored.
import { randomBytes } from 'node:crypto';
import type { Storage, StoredAccount, StoredTournament, TournamentStatus } from '../../store/store';
import { TOURNAMENT_FORMATS, TOURNAMENT_STATUSES } from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import type { Pools } from '../apps/pools';
import { OPEN_APP } from '../../store/store';
import { GameError } from '../errors';
import { refuseRestricted } from '../accounts/restricted';
import type { GameService } from '../game/service';
import { once } from '../idempotency';
import { checkText } from '../accounts/names';
import { perfKey, speedOf, type Perf } from '../ratings/perf';
import { ratingAt } from '../ratings/results';
import { parseTimeControl, type TimeControlInput } from '../time/control';
import type { TournamentDirector } from './director';
import { legPoints } from './rounds';
import { standings, standingsText } from './standings';
import { tournamentText, tournamentView, type StandingsView, type TournamentView } from './views';

const TOURNAMENT_ID = /^[A-Za-z0-9_-]{12}$/;
const ATTEMPTS = 8;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The most players: a round robin's rounds grow with them; a Swiss pairs within a bounded search. */
export const MAX_PLAYERS = { 'round-robin': 20, swiss: 64 } as const;
export const MAX_SWISS_ROUNDS = 15;

export interface CreateTournamentInput {
  readonly name: string;
  readonly kind: string;
  readonly options?: unknown;
  readonly timeControl?: TimeControlInput | null;
  readonly format: string;
  /** Swiss: rounds to play (1–15, default 5). Round robin: set by the number of players. */
  readonly rounds?: number | null;
  readonly microMatch?: boolean | null;
  readonly byePoints?: number | null;
  readonly rated?: boolean | null;
  readonly minPlayers?: number | null;
  readonly maxPlayers?: number | null;
  /** ISO time; absent: starts when full. */
  readonly startsAt?: string | null;
}

/** The seeding rating of an account in a perf: its rating there now (1500, bots 2000, when it has none). */
async function seedRating(storage: Storage, account: StoredAccount, perf: Perf, at: string): Promise<number> {
  const ratings = await storage.ratings.get(account.id);
  return Math.round(ratingAt(ratings[perfKey(perf)], account.kind, at).rating);
}

export class TournamentService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    readonly director: TournamentDirector,
    private readonly now: () => Date,
    private readonly onBackgroundError: (error: unknown) => void,
    private readonly pools: Pools,
  ) {}

  async create(
    credential: Credential,
    input: CreateTournamentInput,
    options: { idempotencyKey?: string } = {},
  ): Promise<TournamentView> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    refuseRestricted(account);
    const call = {
      scope: `account:${account.id}`,
      key: options.idempotencyKey,
      operation: 'createTournament',
      input,
    };
    return once(this.storage.idempotency, call, async () => {
      const parsed = this.parse(account, input);
      // Only the creator's pool joins, reads and lists it.
      const pool = await this.pools.ofAccount(account.id);
      const t = pool === OPEN_APP ? parsed : { ...parsed, pool };
      const max = this.director.openPerAccount;
      if ((await this.storage.tournaments.openBy(account.id)) >= max) {
        throw new GameError(
          'TOO_MANY_TOURNAMENTS',
          `${account.username} already has ${max} open or ongoing tournaments, the most allowed`,
          { max },
        );
      }
      await this.storage.tournaments.create(t);
      await this.storage.tournaments.addMember(account.id, t.id);
      return tournamentView(t);
    });
  }

  private parse(account: StoredAccount, input: CreateTournamentInput): StoredTournament {
    const bad = (field: string, message: string) => new GameError('INVALID_INPUT', message, { field });
    const name = typeof input.name === 'string' ? checkText('name', input.name).trim() : '';
    if (name.length < 1 || name.length > 80) throw bad('name', 'name must be 1 to 80 characters');
    const format = input.format as StoredTournament['format'];
    if (!TOURNAMENT_FORMATS.includes(format))
      throw bad('format', `format must be ${TOURNAMENT_FORMATS.join(' or ')}`);
    const engine = this.games.engineFor(input.kind);
    const options = this.games.parseOptions(engine, input.options);
    const timeControl = parseTimeControl(input.timeControl);
    if (timeControl.type === 'unlimited') {
      throw bad(
        'timeControl',
        'a tournament needs a realtime or correspondence time control (its games must end)',
      );
    }
    const int = (
      field: string,
      value: number | null | undefined,
      min: number,
      max: number,
      fallback: number,
    ) => {
      if (value === undefined || value === null) return fallback;
      if (!Number.isInteger(value) || value < min || value > max)
        throw bad(field, `${field} must be an integer from ${min} to ${max}`);
      return value;
    };
    const maxPlayers = int(
      'maxPlayers',
      input.maxPlayers,
      2,
      MAX_PLAYERS[format],
      Math.min(16, MAX_PLAYERS[format]),
    );
    const minPlayers = int('minPlayers', input.minPlayers, 2, maxPlayers, 2);
    const rounds = format === 'swiss' ? int('rounds', input.rounds, 1, MAX_SWISS_ROUNDS, 5) : 0;
    const byePoints = input.byePoints ?? 1;
    if (![0, 0.5, 1].includes(byePoints)) throw bad('byePoints', 'byePoints must be 0, 0.5 or 1');
    let startsAt: string | null = null;
    const at = this.now();
    if (input.startsAt !== undefined && input.startsAt !== null) {
      const ms = Date.parse(input.startsAt);
      if (Number.isNaN(ms)) throw bad('startsAt', 'startsAt must be an ISO date-time');
      if (ms > at.getTime() + 60 * DAY_MS) throw bad('startsAt', 'startsAt must be within 60 days');
      startsAt = new Date(Math.max(ms, at.getTime())).toISOString();
    }
    return {
      id: randomBytes(9).toString('base64url'),
      name,
      kind: engine.kind,
      options,
      timeControl,
      format,
      rounds,
      microMatch: input.microMatch ?? false,
      byePoints,
      rated: input.rated ?? false,
      minPlayers,
      maxPlayers,
      startsAt,
      // Never filled by then (no start time): cancelled.
      ...(startsAt === null ? { expiresAt: this.director.expiryOf(at.toISOString()) } : {}),
      createdBy: account.id,
      status: 'open',
      round: 0,
      players: [],
      pairings: [],
      results: {},
      version: 0,
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    };
  }

  /** A tournament, read in the credential's pool (another pool's answers as a missing one). */
  async get(id: string, credential?: Credential): Promise<TournamentView> {
    return tournamentView(await this.load(id, await this.pools.ofReader(this.auth, credential)));
  }

  /** The tournaments of the credential's pool (anonymous: the open pool's), newest first. */
  async list(
    status: TournamentStatus | undefined,
    limit: number,
    before?: number,
    credential?: Credential,
  ): Promise<{ items: TournamentView[]; next: number | null }> {
    if (status !== undefined && !TOURNAMENT_STATUSES.includes(status)) {
      throw new GameError('INVALID_INPUT', `status must be one of ${TOURNAMENT_STATUSES.join(', ')}`, {
        field: 'status',
      });
    }
    const pool = await this.pools.ofReader(this.auth, credential);
    const page = await this.storage.tournaments.list(status, clampLimit(limit), before, pool);
    return { items: page.items.map(tournamentView), next: page.next };
  }

  async mine(
    credential: Credential,
    limit: number,
    before?: number,
  ): Promise<{ items: TournamentView[]; next: number | null }> {
    const { account } = await this.auth.requireAccount(credential);
    const page = await this.storage.tournaments.listOf(account.id, clampLimit(limit), before);
    return { items: page.items.map(tournamentView), next: page.next };
  }

  /** Enter an open tournament (again: no change). When this fills it, it starts. */
  async join(credential: Credential, id: string): Promise<TournamentView> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write', 'bot:play');
    refuseRestricted(account);
    // Another pool's tournament answers as a missing one. The perf never changes: the seeding
    // rating is read before the compare-and-set loop.
    const known = await this.load(id, await this.pools.ofAccount(account.id));
    const rating = await seedRating(
      this.storage,
      account,
      { kind: known.kind, speed: speedOf(known.timeControl) },
      this.now().toISOString(),
    );
    const view = await this.change(id, (t) => {
      if (t.players.some((p) => p.account === account.id)) return undefined;
      if (t.status !== 'open') throw closed(t);
      if (t.players.length >= t.maxPlayers)
        throw new GameError('TOURNAMENT_FULL', `The tournament has its ${t.maxPlayers} players`, {
          max: t.maxPlayers,
        });
      const player = {
        account: account.id,
        name: account.username,
        rating,
        joinedAt: this.now().toISOString(),
      };
      return { ...t, players: [...t.players, player] };
    });
    await this.storage.tournaments.addMember(account.id, id);
    // The entry that fills the tournament starts it (unless another node directs it right now).
    if (view.status === 'open' && view.players.length >= view.maxPlayers) {
      await this.director.advance(id).catch(this.onBackgroundError);
      return this.get(id);
    }
    return view;
  }

  /** Leave: before the start the entry is gone; after, a withdrawal (no further pairings, unplayed games forfeited). */
  async leave(credential: Credential, id: string): Promise<TournamentView> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write', 'bot:play');
    await this.load(id, await this.pools.ofAccount(account.id));
    return this.change(id, (t) => {
      const me = t.players.find((p) => p.account === account.id);
      if (!me || me.withdrawnAfterRound !== undefined) {
        throw new GameError('NOT_IN_TOURNAMENT', `${account.username} is not playing in this tournament`);
      }
      if (t.status === 'open') return { ...t, players: t.players.filter((p) => p !== me) };
      if (t.status !== 'ongoing') throw closed(t);
      return { ...t, players: t.players.map((p) => (p === me ? { ...p, withdrawnAfterRound: t.round } : p)) };
    });
  }

  /** The standings now: finished rounds and the current round's finished games. */
  async standings(id: string, credential?: Credential): Promise<StandingsView> {
    const t = await this.load(id, await this.pools.ofReader(this.auth, credential));
    const results = new Map(Object.entries(t.results));
    // The round being played: bounded by its boards (at most MAX_PLAYERS / 2 × 2 legs).
    for (const p of t.pairings.filter((x) => x.round === t.round)) {
      for (const [leg, gameId] of p.games.entries()) {
        if (results.has(gameId)) continue;
        const game = await this.storage.games.get(gameId);
        if (game?.status === 'finished' && game.outcome) results.set(gameId, legPoints(game.outcome, leg));
      }
    }
    const played = { ...t, pairings: t.pairings.filter((p) => p.round <= t.round) };
    return {
      tournament: t.id,
      status: t.status,
      round: t.round,
      rounds: t.rounds,
      rows: standings(played, results),
    };
  }

  async standingsText(id: string, credential?: Credential): Promise<string> {
    const pool = await this.pools.ofReader(this.auth, credential);
    const [t, view] = await Promise.all([this.load(id, pool), this.standings(id, credential)]);
    const title = `${t.name} — ${t.format === 'swiss' ? 'Swiss' : 'round robin'}, ${t.kind}, round ${t.round} of ${t.rounds} (${t.status})`;
    return standingsText(title, t.format, view.rows);
  }

  /** The whole tournament as plain text: settings, each round's pairings and results, the standings. */
  async exportText(id: string, credential?: Credential): Promise<string> {
    const [t, table] = await Promise.all([this.get(id, credential), this.standingsText(id, credential)]);
    return tournamentText(t, table);
  }

  /** The tournament, as `pool` sees it (undefined: as the store has it, for its own writes). */
  private async load(id: string, pool?: string): Promise<StoredTournament> {
    if (!TOURNAMENT_ID.test(id))
      throw new GameError('INVALID_INPUT', `Malformed tournament id "${id}"`, { field: 'id' });
    const t = await this.storage.tournaments.get(id);
    if (!t || (pool !== undefined && (t.pool ?? OPEN_APP) !== pool))
      throw new GameError('TOURNAMENT_NOT_FOUND', `No tournament ${id}`);
    return t;
  }

  /** A compare-and-set change; `apply` returns undefined for no change. */
  private async change(
    id: string,
    apply: (t: StoredTournament) => StoredTournament | undefined,
  ): Promise<TournamentView> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const t = await this.load(id);
      const next = apply(t);
      if (!next) return tournamentView(t);
      const written = { ...next, version: t.version + 1, updatedAt: this.now().toISOString() };
      if ((await this.storage.tournaments.update(written, t.version)).status === 'updated')
        return tournamentView(written);
    }
    throw new GameError('VERSION_CONFLICT', 'The tournament is changing too fast; retry');
  }
}

function closed(t: StoredTournament): GameError {
  return new GameError('TOURNAMENT_CLOSED', `The tournament is ${t.status}`, { status: t.status });
}

function clampLimit(limit: number): number {
  return Math.max(1, Math.min(100, Math.floor(limit) || 20));
}
