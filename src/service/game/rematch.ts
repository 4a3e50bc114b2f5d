// Rematches: after a game ends, either seat offers a new game with the same settings and the
// colours swapped; the other accepts (or declines). Against the AI an offer is accepted at once.
//
// Exactly once, whatever the races (both offer at once, both accept at once, an accept retried):
// - the offer and the decline are compare-and-sets of the finished game's document (its version),
//   so of two offers at once one is stored and the other, retried, finds it and accepts it;
// - the new game's id is derived from the finished game's (derivedValue: only the server computes
//   it), so however many accepts race, the store creates one game under that id and every other
//   accept finds it and answers it; the finished game then records it (`rematch.game`). An accept
//   that dies between the two leaves the link to the next offer or accept, which finds the game.
// The new game starts as every game does: the players' restrictions, blocks, ongoing-games caps
// (checked by the store's create), their app's gamesPerDay, an address's daily quotas for games
// held by seat tokens. Seat-token games get new seat tokens derived (HMAC under the server key)
// from the old seats' token hashes: each holder receives its own by presenting its old token.
import { other, type Side } from '../../engines/types';
import type { RematchStatus } from '../../vocabulary';
import type { GameLimit, Notice, RematchRecord, Storage, StoredAccount, StoredGame } from '../../store/store';
import { authorizeSeat, hashToken, type Authenticator, type Caller, type Credential } from '../accounts/auth';
import { refuseRestricted } from '../accounts/restricted';
import { DEFAULT_QUOTAS, gameLimits, tooManyGames, type Quotas } from '../accounts/quotas';
import { SeatTokenQuotas } from '../bots/ai-quotas';
import { aiLevelOf } from '../bots/ai-games';
import { GameError } from '../errors';
import { seatRatings } from '../ratings/results';
import { derivedValue } from '../server-key';
import { SERVICE_READ } from './audience';
import { rematchOf, rematchSeatOf } from './rematch-rules';
import type { GameService } from './service';
import { feature } from './tv';
import type { GameView } from './view';
import { slimNotice } from '../delivery/feed-events';

/** How often a rematch write retries after losing a compare-and-set of the finished game. */
export const REMATCH_ATTEMPTS = 8;

export type RematchAction = 'offer' | 'accept' | 'decline';

/** What a rematch request answers. */
export interface RematchAnswer {
  readonly status: RematchStatus;
  /** The new game once accepted; null otherwise. */
  readonly game: GameView | null;
  /** A caller holding its seat by a seat token: its seat in the new game and that seat's token. */
  readonly seatToken?: { readonly seat: number; readonly name: string; readonly token: string };
}

/** The id of a finished game's rematch: derived from its id, so that every accept names the same game. */
export function rematchIdOf(gameId: string): string {
  return derivedValue('rematch game', gameId).subarray(0, 9).toString('base64url');
}

/** The seat token of a rematch's seat whose holder held the seat of `oldHash` in the finished game. */
export function rematchSeatToken(rematchId: string, oldHash: string): string {
  return `bhs_${derivedValue('rematch seat token', `${rematchId}\u0000${oldHash}`).subarray(0, 24).toString('base64url')}`;
}

function notAllowed(reason: string, message: string): GameError {
  return new GameError('REMATCH_NOT_ALLOWED', message, { reason });
}

function noOffer(): GameError {
  return new GameError('NO_REMATCH_OFFER', 'No rematch offer of the opponent stands');
}

export class RematchService {
  /** Seat-token rematches count as any seat-token game of the address (AI games too). */
  private readonly seatTokens: SeatTokenQuotas;

  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly now: () => Date = () => new Date(),
    private readonly quotas: Quotas = DEFAULT_QUOTAS,
  ) {
    this.seatTokens = new SeatTokenQuotas(storage, quotas, () => this.now().getTime());
  }

  /** Offers a rematch; accepts the opponent's standing offer, or the AI's at once. */
  offer(credential: Credential, id: string): Promise<RematchAnswer> {
    return this.act(credential, id, 'offer');
  }

  /** Accepts the opponent's offer (against the AI: at once); again: the same new game. */
  accept(credential: Credential, id: string): Promise<RematchAnswer> {
    return this.act(credential, id, 'accept');
  }

  /** Declines the opponent's offer. */
  decline(credential: Credential, id: string): Promise<RematchAnswer> {
    return this.act(credential, id, 'decline');
  }

  private async act(credential: Credential, id: string, action: RematchAction): Promise<RematchAnswer> {
    const caller = await this.auth.identify(credential);
    for (let attempt = 0; attempt < REMATCH_ATTEMPTS; attempt++) {
      // Whoever may not read the game finds no game (GAME_NOT_FOUND), as for every write.
      const game = await this.games.readable(id, credential);
      const seat = authorizeSeat(game, caller);
      if (game.status !== 'finished') throw notAllowed('ongoing', 'The game is not over: finish it first');
      if (game.source) {
        throw notAllowed(
          'source',
          `A ${game.source.type} game has no rematch: its ${game.source.type} pairs`,
        );
      }
      const record = rematchOf(game);
      if (record.game !== null) {
        if (action === 'decline') throw noOffer();
        return this.start(game, seat, caller, credential);
      }
      const opponent = other(seat);
      const againstAi = aiLevelOf(game.seats[opponent]?.account) !== undefined;
      const offered = againstAi || record.offeredBy === opponent;
      if (action === 'accept' || (action === 'offer' && offered)) {
        if (!offered) throw noOffer();
        return this.start(game, seat, caller, credential);
      }
      if (action === 'decline') {
        if (record.offeredBy !== opponent) throw noOffer();
        if (await this.write(game, { offeredBy: null, declinedBy: seat, game: null })) {
          return { status: 'declined', game: null };
        }
        continue;
      }
      if (record.offeredBy === seat) return { status: 'offered', game: null };
      if (record.declinedBy === opponent) {
        throw notAllowed('declined', 'The opponent declined your rematch offer');
      }
      await this.players(game);
      if (await this.write(game, { offeredBy: seat, declinedBy: null, game: null })) {
        return { status: 'offered', game: null };
      }
    }
    throw new GameError('VERSION_CONFLICT', 'The game is changing too fast; read it and retry');
  }

  /** Compare-and-set of the finished game's rematch record; false: it changed since it was read. */
  private async write(game: StoredGame, rematch: RematchRecord): Promise<boolean> {
    const next: StoredGame = {
      ...game,
      rematch,
      version: game.version + 1,
      updatedAt: this.now().toISOString(),
    };
    const result = await this.games.writer.commit(game, next);
    if (result.status === 'missing') throw new GameError('GAME_NOT_FOUND', `No game with id ${game.id}`);
    return result.status === 'updated';
  }

  /**
   * The players' accounts (the AI left out), refused when restricted or when one blocked the other
   * (REMATCH_NOT_ALLOWED `blocked`).
   */
  private async players(game: StoredGame): Promise<StoredAccount[]> {
    const ids = game.seats.flatMap((s) =>
      s.account !== null && aiLevelOf(s.account) === undefined ? [s.account] : [],
    );
    const accounts = await Promise.all(ids.map((a) => this.storage.accounts.getAccount(a)));
    const found = accounts.filter((a): a is StoredAccount => a !== undefined);
    refuseRestricted(...found);
    const [a, b] = ids;
    if (a !== undefined && b !== undefined && a !== b) {
      const blocks = await Promise.all([
        this.storage.blocks.isBlocked(a, b),
        this.storage.blocks.isBlocked(b, a),
      ]);
      if (blocks.some(Boolean)) throw notAllowed('blocked', 'One player has blocked the other');
    }
    return found;
  }

  /** The rematch of `game` started (once) and linked from it; the caller's answer. */
  private async start(
    game: StoredGame,
    seat: Side,
    caller: Caller,
    credential: Credential,
  ): Promise<RematchAnswer> {
    const id = rematchIdOf(game.id);
    const started = (await this.storage.games.get(id)) ?? (await this.create(game, id, credential.ip));
    await this.link(game.id, id);
    const view = this.games.view(started);
    if (caller.kind !== 'seat') return { status: 'accepted', game: view };
    const newSeat = rematchSeatOf(seat);
    const engine = this.games.engineFor(game.kind);
    return {
      status: 'accepted',
      game: view,
      seatToken: {
        seat: newSeat,
        name: engine.seatNames[newSeat] as string,
        token: rematchSeatToken(id, game.seatTokenHashes[seat]),
      },
    };
  }

  /** Makes the rematch `id` of `game`, or finds the one a racing accept made. */
  private async create(game: StoredGame, id: string, ip: string | undefined): Promise<StoredGame> {
    const players = await this.players(game);
    const next = await this.newGame(game, id, players);
    const counted = await this.count(game, next, players, ip);
    const seated = next.seats.flatMap((s) => (s.account === null ? [] : [s.account]));
    const at = next.createdAt;
    const notices: Notice[] =
      seated.length === 0
        ? []
        : [slimNotice({ to: seated, type: 'game.started', at, data: { game: this.games.headView(next) } })];
    // The AI plays any number of games: only the humans' caps.
    const limits: GameLimit[] = gameLimits(players, this.quotas);
    let result;
    try {
      result = await this.storage.games.create(next, notices, limits);
    } catch (error) {
      // The id is taken: another accept created it first.
      const raced = await this.storage.games.get(id);
      if (raced) return raced;
      await counted();
      throw error;
    }
    if (result.status === 'too-many-games') {
      const raced = await this.storage.games.get(id);
      if (raced) return raced;
      await counted();
      const full = players.find((p) => p.id === result.account);
      throw full
        ? tooManyGames(full, this.quotas)
        : new GameError('TOO_MANY_GAMES', `${result.account} has too many ongoing games`);
    }
    this.games.time.announce(next);
    await feature(this.storage, next);
    return next;
  }

  /** The new game's document: `game`'s settings, each player in the other seat. */
  private async newGame(
    game: StoredGame,
    id: string,
    players: readonly StoredAccount[],
  ): Promise<StoredGame> {
    const at = this.now().toISOString();
    const seatOf = (old: Side) => rematchSeatOf(old);
    const accounts: [string | null, string | null] = [null, null];
    const hashes: [string, string] = ['', ''];
    for (const s of game.seats) {
      accounts[seatOf(s.seat)] = s.account;
      const hash = game.seatTokenHashes[s.seat];
      if (hash) hashes[seatOf(s.seat)] = hashToken(rematchSeatToken(id, hash));
    }
    const timeControl = game.timeControl ?? { type: 'unlimited' as const };
    const humans = players.map((p) => p.id);
    const vacations =
      timeControl.type === 'correspondence' ? await this.games.time.vacationsFor(humans) : undefined;
    const rated = game.rated ? await seatRatings(this.storage, humans, game, at) : undefined;
    const made = this.games.newGame({
      id,
      kind: game.kind,
      options: game.options,
      first: game.first,
      ...(game.initialPosition === undefined ? {} : { initialPosition: game.initialPosition }),
      accounts,
      seatTokenHashes: hashes,
      timeControl,
      at,
      ...(vacations ? { vacations } : {}),
      ...(rated ? { rated } : {}),
      audience: {
        ...(game.app === undefined ? {} : { app: game.app }),
        ...(game.pool === undefined ? {} : { pool: game.pool }),
        ...(game.visibility === undefined ? {} : { visibility: game.visibility }),
      },
    });
    return {
      ...made,
      rematchOf: game.id,
      ...(game.spectators ? { spectators: game.spectators } : {}),
      ...(game.owner ? { owner: game.owner } : {}),
      // The per-game settings (takeback, chat), when this server stores them.
      ...('settings' in game && game.settings !== undefined ? { settings: game.settings } : {}),
    };
  }

  /**
   * Counts the new game where a start counts: the app of the account that offered (or accepted
   * the AI's) against its gamesPerDay; a game held by seat tokens against the address's daily
   * games (and, against the AI, its AI games and ongoing AI games). Resolves with the function that
   * gives back what can be (an ongoing AI game's place) when the game is not stored after all.
   */
  private async count(
    game: StoredGame,
    next: StoredGame,
    players: readonly StoredAccount[],
    ip: string | undefined,
  ): Promise<() => Promise<void>> {
    const offerer = rematchOf(game).offeredBy;
    const creator = players.find((p) => p.id === game.seats[offerer ?? 0]?.account) ?? players[0];
    if (creator) {
      await this.games.countCreated(creator.id);
      return async () => undefined;
    }
    const againstAi = game.seats.some((s) => aiLevelOf(s.account) !== undefined);
    return this.seatTokens.take(ip, next.id, againstAi);
  }

  /** Records the rematch in the finished game (once; a link already there is left as it is). */
  private async link(gameId: string, rematchId: string): Promise<void> {
    for (let attempt = 0; attempt < REMATCH_ATTEMPTS; attempt++) {
      const game = await this.games.readable(gameId, SERVICE_READ);
      if (rematchOf(game).game !== null) return;
      if (await this.write(game, { offeredBy: null, declinedBy: null, game: rematchId })) return;
    }
    throw new GameError('VERSION_CONFLICT', 'The game is changing too fast; read it and retry');
  }
}
