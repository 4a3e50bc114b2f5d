import type { Storage } from '../../store/store';
import { hashToken } from '../accounts/auth';

// CORS per app: a browser at one of an app's corsOrigins may call the API with that app's session
// tokens (or key). Preflights carry no credential, so they are let through for an origin any app
// lists. Each node keeps the union of every app's origins, re-read from the store at most every
// APP_ORIGINS_REFRESH_MS (an operator's change shows on every node within it), and which app each
// bearer it saw belongs to (that never changes), so a cross-origin request costs no store call once
// its bearer is known, and a request from an origin no app lists costs none at all.

/** How long a node trusts the apps' origins it read. */
export const APP_ORIGINS_REFRESH_MS = 5_000;
/** Bearers whose app this node remembers (oldest dropped). */
const CACHED_BEARERS = 10_000;

interface Union {
  /** Origin → the ids of the (enabled) apps that list it. */
  readonly byOrigin: ReadonlyMap<string, ReadonlySet<string>>;
  readonly at: number;
}

export class AppOrigins {
  private union: Union | undefined;
  private loading: Promise<Union> | undefined;
  /** Bearer hash → its app id (null: it belongs to no app, e.g. an open account's token). */
  private readonly bearers = new Map<string, string | null>();

  constructor(
    private readonly storage: Storage,
    private readonly clock: () => number = Date.now,
  ) {}

  /** True when some enabled app lists `origin` (preflights, and requests without a bearer). */
  async anyApp(origin: string): Promise<boolean> {
    return (await this.current()).byOrigin.has(origin);
  }

  /** True when the app of the bearer `token` (a session token or an app key) lists `origin`. */
  async ofBearer(origin: string, token: string): Promise<boolean> {
    const apps = (await this.current()).byOrigin.get(origin);
    if (!apps) return false;
    const app = await this.appOfBearer(token);
    return app !== null && apps.has(app);
  }

  private async current(): Promise<Union> {
    const union = this.union;
    if (union && this.clock() - union.at < APP_ORIGINS_REFRESH_MS) return union;
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<Union> {
    const at = this.clock();
    const byOrigin = new Map<string, Set<string>>();
    for (const app of await this.storage.apps.listApps()) {
      if (app.disabledAt) continue;
      for (const origin of app.settings.corsOrigins) {
        let apps = byOrigin.get(origin);
        if (!apps) byOrigin.set(origin, (apps = new Set()));
        apps.add(app.id);
      }
    }
    this.union = { byOrigin, at };
    return this.union;
  }

  private async appOfBearer(token: string): Promise<string | null> {
    const hash = hashToken(token);
    const known = this.bearers.get(hash);
    if (known !== undefined) return known;
    let app: string | null;
    if (token.startsWith('bha_')) {
      const key = await this.storage.apps.keyByHash(hash);
      if (!key) return null;
      app = key.app;
    } else if (token.startsWith('bhp_')) {
      const stored = await this.storage.accounts.tokenByHash(hash);
      if (!stored) return null;
      app = stored.session?.app ?? null;
    } else {
      return null;
    }
    this.bearers.set(hash, app);
    if (this.bearers.size > CACHED_BEARERS) this.bearers.delete(this.bearers.keys().next().value as string);
    return app;
  }
}
