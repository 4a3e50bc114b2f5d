// An app's session on the client side: the access token it sends, and the refresh that replaces the
// pair when the access token expires. The refresh is single-flight: a refresh token works once (the
// server revokes the whole session when one is presented twice), so concurrent requests that meet an
// expired token wait for one refresh instead of each trading the same refresh token.
import createClient from 'openapi-fetch';
import { toError, type BoardhostError } from './errors';
import type { components, paths } from './generated/openapi';
import { retryAfterMs, sleep } from './http';

export type IssuedSession = components['schemas']['IssuedSession'];

/** The tokens a client holds: those of POST /app/accounts/{externalId}/sessions or of a refresh. */
export interface SessionTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** When the access token expires: given, the client refreshes shortly before instead of after. */
  readonly accessTokenExpiresAt?: string;
  readonly refreshTokenExpiresAt?: string;
}

export interface SessionOptions extends SessionTokens {
  /**
   * Called (and awaited) with the new pair after each refresh: persist it, since the old refresh
   * token no longer works. An error it throws fails the request that needed the refresh.
   */
  readonly onRefresh?: (tokens: IssuedSession) => void | Promise<void>;
  /** How long before `accessTokenExpiresAt` to refresh, in ms (default 30 s). */
  readonly refreshMarginMs?: number;
}

/** What a session client exposes of its session. */
export interface SessionHandle {
  /** The pair in use now (after any refresh). */
  tokens(): SessionTokens;
  /** Refreshes now (joining a refresh under way); the new pair. Refused: INVALID_REFRESH_TOKEN. */
  refresh(): Promise<SessionTokens>;
}

/** The credentials under every request of a client: a bearer, and what to do about a 401. */
export interface Credentials {
  /** The bearer to send now: waits for a refresh under way, or for one that is due. */
  bearer(): Promise<string | undefined>;
  /** Headers every request carries besides the bearer (Boardhost-Account). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A 401 `code` to a request sent with `used`: true when sending it once more with `bearer()` may
   * succeed (the token was refreshed meanwhile, or is now); throws when the refresh is refused.
   */
  renew?(used: string, code: string | undefined): Promise<boolean>;
}

/** A fixed bearer (a personal token or an app key), optionally acting for an account. */
export function fixedCredentials(token: string | undefined, account?: string): Credentials {
  return {
    bearer: async () => token,
    ...(account === undefined ? {} : { headers: { 'boardhost-account': account } }),
  };
}

const REFRESH_RETRIES = 5;

export class Session implements Credentials, SessionHandle {
  private current: SessionTokens;
  private pending: Promise<SessionTokens> | undefined;
  /** The refusal of a refresh: the session is over, and its refresh token is not presented again. */
  private refused: BoardhostError | undefined;
  private readonly refresher;

  constructor(
    baseUrl: string,
    private readonly options: SessionOptions,
    private readonly base: typeof fetch = globalThis.fetch,
  ) {
    this.current = {
      accessToken: options.accessToken,
      refreshToken: options.refreshToken,
      ...(options.accessTokenExpiresAt ? { accessTokenExpiresAt: options.accessTokenExpiresAt } : {}),
      ...(options.refreshTokenExpiresAt ? { refreshTokenExpiresAt: options.refreshTokenExpiresAt } : {}),
    };
    // The refresh is not retried after a lost connection: the server may have rotated the pair, and
    // the same refresh token sent again would revoke the session. 429 and 503 are retried (refused
    // before any work), after Retry-After.
    this.refresher = createClient<paths>({
      baseUrl,
      fetch: async (request: Request) => {
        for (let attempt = 0; ; attempt++) {
          const response = await this.base(request.clone());
          if ((response.status !== 429 && response.status !== 503) || attempt >= REFRESH_RETRIES) {
            return response;
          }
          await response.body?.cancel();
          await sleep(Math.min(30_000, retryAfterMs(response, 100 * 2 ** attempt)), request.signal);
        }
      },
    });
  }

  tokens(): SessionTokens {
    return this.current;
  }

  async bearer(): Promise<string> {
    if (this.pending) return (await this.pending).accessToken;
    const expiresAt = this.current.accessTokenExpiresAt;
    if (expiresAt && Date.parse(expiresAt) - Date.now() <= (this.options.refreshMarginMs ?? 30_000)) {
      return (await this.refresh()).accessToken;
    }
    return this.current.accessToken;
  }

  async renew(used: string, code: string | undefined): Promise<boolean> {
    // Another request refreshed while this one was out (the old access token dies at a refresh, so
    // its 401 may say UNAUTHENTICATED): send it again with the new token.
    if (this.pending) await this.pending.catch(() => undefined);
    if (used !== this.current.accessToken) return true;
    if (code !== 'TOKEN_EXPIRED') return false;
    await this.refresh();
    return true;
  }

  refresh(): Promise<SessionTokens> {
    this.pending ??= this.trade(this.current.refreshToken).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async trade(refreshToken: string): Promise<SessionTokens> {
    if (this.refused) throw this.refused;
    const { data, error, response } = await this.refresher.POST('/api/v1/sessions/refresh', {
      body: { refreshToken },
    });
    if (!response.ok || !data) {
      const refusal = toError(error, response);
      if (refusal.code === 'INVALID_REFRESH_TOKEN') this.refused = refusal;
      throw refusal;
    }
    this.current = {
      accessToken: data.accessToken,
      refreshToken: data.refreshToken,
      accessTokenExpiresAt: data.accessTokenExpiresAt,
      refreshTokenExpiresAt: data.refreshTokenExpiresAt,
    };
    await this.options.onRefresh?.(data);
    return this.current;
  }
}
