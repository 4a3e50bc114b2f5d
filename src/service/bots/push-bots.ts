import { randomBytes, randomUUID } from 'node:crypto';
import type { Storage, StoredPushEndpoint } from '../../store/store';
import { playScope, requireScope, type Authenticator, type Credential } from '../accounts/auth';
import { GameError } from '../errors';
import type { GameView } from '../game/view';
import type { GameService } from '../game/service';
import { SERVICE_READ } from '../game/audience';
import type { MoveProvider, TurnDriver } from './turn-driver';
import { decryptSecret, encryptSecret } from '../server-key';
import { checkWebhookTarget, parseWebhookUrl, type PortRanges } from '../delivery/webhook-address';
import { WebhookSender } from '../delivery/webhook-sender';
import { signWebhook, WEBHOOK_HEADERS } from '../delivery/webhook-signature';

// Push-mode bots (the serverless shape of general game playing): an account registers a move
// endpoint, and on each of its turns the server POSTs the game with the legal moves and the time
// left, signed like a webhook, and plays the move the answer names. The turn driver (turn-driver.ts)
// decides when and plays the move through the ordinary write path (If-Match = the version, a key
// per version: one move per version on any number of nodes); this file is its provider for accounts
// with an endpoint: the request, its answer, bounded retries.
//
// A turn gets `attempts` requests at most, each within the time left; an answer that is not 2xx,
// not JSON {"move": "<a legal move>"}, or late counts as a failed attempt. After the last one the
// turn is given up (recorded for the version in the idempotency store, so no node asks again) and
// the game runs on: the clock or deadline ends it as usual.

/** Request bodies of a turn name the event `turn`. */
export const PUSH_EVENT = 'turn';
/** What an answer may hold: {"move": "…"} and little else. */
const ANSWER_BYTES = 4096;
const SECRET = /^[\x21-\x7e]{16,200}$/;

export interface PushOptions {
  /** Endpoints on loopback and private addresses, over http too (tests, closed networks). */
  readonly allowPrivate?: boolean;
  /** Ports allowed (default: as webhooks; see ../delivery/webhook-address.ts). */
  readonly ports?: PortRanges;
  /** One request's deadline (default 8 s; never past the mover's time). */
  readonly timeoutMs?: number;
  /** Requests per turn at most (default 3). */
  readonly attempts?: number;
  /** Milliseconds between a failed attempt and the next (default 1000). */
  readonly retryDelayMs?: number;
}

export interface PushEndpointView {
  readonly url: string;
  readonly createdAt: string;
}

/** What a push endpoint is sent on each turn. */
export interface PushTurn {
  readonly type: typeof PUSH_EVENT;
  /** Which request of this turn (1 first). */
  readonly attempt: number;
  readonly attempts: number;
  readonly account: string;
  /** The account's seat name in the game (south, white…). */
  readonly seat: string;
  readonly legalMoves: readonly string[];
  /** Milliseconds left on the mover's clock or until its deadline when sent; null: no limit. */
  readonly timeLeftMs: number | null;
  /** Answer within this many milliseconds, or the attempt fails. */
  readonly answerWithinMs: number;
  /** The game without its moves (the head), with `moves`: every move's notation, in order. */
  readonly game: Omit<GameView, 'moves'> & { readonly moves: readonly string[] };
}

const view = (e: StoredPushEndpoint): PushEndpointView => ({ url: e.url, createdAt: e.createdAt });

export class PushBotService {
  private readonly sender: WebhookSender;
  private readonly allowPrivate: boolean;
  private readonly ports: PortRanges | undefined;
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly retryDelayMs: number;
  /** True once this node drives push bots' turns (drive()). */
  private driving = false;
  /** The accounts this node registered with the driver. */
  private driven = new Set<string>();

  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
    private readonly driver: TurnDriver,
    private readonly now: () => Date = () => new Date(),
    options: PushOptions = {},
  ) {
    this.allowPrivate = options.allowPrivate ?? false;
    this.timeoutMs = options.timeoutMs ?? 8000;
    this.attempts = options.attempts ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.ports = options.ports;
    this.sender = new WebhookSender({
      allowPrivate: this.allowPrivate,
      timeoutMs: this.timeoutMs,
      ...(this.ports ? { ports: this.ports } : {}),
    });
  }

  /**
   * Registers (or replaces) the caller's move endpoint; its turns are pushed there from now on. The
   * secret (given, or made) is shown only here. HTTPS only, public addresses only (unless private
   * targets are allowed). Needs the account's play scope.
   */
  async register(
    credential: Credential,
    input: { readonly url: string; readonly secret?: string },
  ): Promise<PushEndpointView & { readonly secret: string }> {
    const caller = await this.auth.requireAccount(credential);
    requireScope(caller, playScope(caller.account));
    const url = parseWebhookUrl(input.url);
    if (url.protocol !== 'https:' && !this.allowPrivate) {
      throw new GameError('INVALID_INPUT', 'A move endpoint must use https', { field: 'url' });
    }
    if (input.secret !== undefined && !SECRET.test(input.secret)) {
      throw new GameError('INVALID_INPUT', 'secret must be 16–200 visible ASCII characters', {
        field: 'secret',
      });
    }
    await checkWebhookTarget(url, {
      allowPrivate: this.allowPrivate,
      ...(this.ports ? { ports: this.ports } : {}),
    });
    const secret = input.secret ?? `pbsec_${randomBytes(24).toString('base64url')}`;
    const endpoint: StoredPushEndpoint = {
      account: caller.account.id,
      url: url.href,
      // Stored encrypted under the server key (server-key.ts); shown in clear once, below.
      secret: encryptSecret(secret),
      createdAt: this.now().toISOString(),
    };
    await this.storage.push.setPushEndpoint(endpoint);
    if (this.driving) await this.driver.register(endpoint.account, this.provider(endpoint.account));
    return { ...view(endpoint), secret };
  }

  /** The caller's endpoint (without its secret); NOT_FOUND when it has none. */
  async get(credential: Credential): Promise<PushEndpointView> {
    const found = await this.find(credential);
    if (!found.endpoint) throw new GameError('NOT_FOUND', `${found.username} has no move endpoint`);
    return found.endpoint;
  }

  /** The caller's endpoint (without its secret), if it has one. */
  async find(credential: Credential): Promise<{ username: string; endpoint: PushEndpointView | null }> {
    const { account } = await this.auth.requireAccount(credential);
    const endpoint = await this.storage.push.getPushEndpoint(account.id);
    return { username: account.username, endpoint: endpoint ? view(endpoint) : null };
  }

  /** Removes the caller's endpoint: its turns are its own again. NOT_FOUND when it has none. */
  async remove(credential: Credential): Promise<void> {
    const caller = await this.auth.requireAccount(credential);
    requireScope(caller, playScope(caller.account));
    if (!(await this.storage.push.deletePushEndpoint(caller.account.id))) {
      throw new GameError('NOT_FOUND', `${caller.account.username} has no move endpoint`);
    }
    if (this.driving) await this.driver.unregister(caller.account.id);
  }

  /** From now on this node drives the turns of every account with an endpoint (refresh() keeps up). */
  async drive(): Promise<void> {
    this.driving = true;
    // A store that cannot answer now does not keep the node from starting: the refresh timer retries.
    await this.refresh().catch(() => undefined);
  }

  /** Registers with the driver the accounts that got an endpoint on another node, drops removed ones. */
  async refresh(): Promise<void> {
    if (!this.driving) return;
    const accounts = new Set(await this.storage.push.listPushAccounts());
    const driven = new Set(this.driven);
    for (const account of accounts) {
      if (!driven.has(account)) await this.driver.register(account, this.provider(account));
    }
    for (const account of driven) if (!accounts.has(account)) await this.driver.unregister(account);
    this.driven = accounts;
  }

  stop(): void {
    this.driving = false;
    this.sender.stop();
  }

  /** The turn driver's provider for `account`: asks its endpoint, `attempts` times at most. */
  provider(account: string): MoveProvider {
    return async (game, legalMoves, timeLeftMs) => {
      const endpoint = await this.storage.push.getPushEndpoint(account);
      if (!endpoint) throw new Error(`${account} has no move endpoint any more`);
      const gaveUp = `push:gaveup:${game.id}:${game.version}`;
      // A turn given up stays given up (on every node): the clock decides now.
      if ((await this.storage.idempotency.claim(gaveUp, account, 1)).status === 'done') {
        throw new Error(`${account}: turn ${game.id}@${game.version} was given up`);
      }
      const started = Date.now();
      const left = () => (timeLeftMs === null ? Infinity : timeLeftMs - (Date.now() - started));
      const failures: string[] = [];
      for (let attempt = 1; attempt <= this.attempts && left() > 0; attempt++) {
        if (attempt > 1) await sleep(Math.min(this.retryDelayMs, Math.max(0, left() - 1)));
        if (left() <= 0) break;
        const answerWithinMs = Math.floor(Math.min(this.timeoutMs, left()));
        const outcome = await this.ask(endpoint, game, legalMoves, timeLeftMs, attempt, answerWithinMs);
        if (outcome.move !== undefined) return outcome.move;
        failures.push(`attempt ${attempt}: ${outcome.error}`);
      }
      await this.storage.idempotency.claim(gaveUp, account, 60_000);
      await this.storage.idempotency.complete(gaveUp, account, failures.join('; '), 24 * 60 * 60);
      throw new Error(
        `${account}: no valid move from ${endpoint.url} (${failures.join('; ') || 'no time left'})`,
      );
    };
  }

  /** One signed request; the move (canonical notation) or why not. */
  private async ask(
    endpoint: StoredPushEndpoint,
    game: GameView,
    legalMoves: readonly string[],
    timeLeftMs: number | null,
    attempt: number,
    answerWithinMs: number,
  ): Promise<{ move?: string; error?: string }> {
    const { moves, ...head } = game;
    const seat = game.seats.find((s) => s.account === endpoint.account);
    const turn: PushTurn = {
      type: PUSH_EVENT,
      attempt,
      attempts: this.attempts,
      account: endpoint.account,
      seat: seat?.name ?? '',
      legalMoves,
      timeLeftMs: timeLeftMs === null ? null : Math.max(0, Math.floor(timeLeftMs)),
      answerWithinMs,
      game: { ...head, moves: moves.map((m) => m.notation) },
    };
    const body = JSON.stringify(turn);
    const timestamp = Math.floor(Date.now() / 1000);
    const result = await this.sender.post(
      endpoint.url,
      body,
      {
        'content-type': 'application/json',
        'user-agent': 'Boardhost-Push/1',
        [WEBHOOK_HEADERS.delivery]: randomUUID(),
        [WEBHOOK_HEADERS.event]: PUSH_EVENT,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signWebhook(decryptSecret(endpoint.secret), timestamp, body),
      },
      { readBody: ANSWER_BYTES, timeoutMs: answerWithinMs },
    );
    if (result.error !== null) return { error: result.error };
    let move: unknown;
    try {
      move = (JSON.parse(result.body ?? '') as { move?: unknown }).move;
    } catch {
      return { error: 'the answer is not JSON' };
    }
    if (typeof move !== 'string') return { error: 'the answer has no "move" string' };
    try {
      return { move: (await this.games.validateMove(game.id, move, SERVICE_READ)).move };
    } catch (error) {
      return { error: `"${move.slice(0, 40)}": ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
