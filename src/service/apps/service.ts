import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  APP_KEY_SCOPES,
  DEFAULT_APP_SETTINGS,
  OPEN_APP,
  type AppKeyScope,
  type AppSettings,
  type Storage,
  type StoredApp,
  type StoredAppKey,
} from '../../store/store';
import { hashToken, newAppKey } from '../accounts/auth';
import { checkText } from '../accounts/names';
import { GameError } from '../errors';

// Apps and their keys: what the operator manages (the admin API and CLI call this; the operator key
// is checked by the transport). See store/ports/apps.ts for what an app is.

/** Keys one app may hold that are not revoked. */
export const MAX_ACTIVE_KEYS = 20;

export interface AppView {
  readonly id: string;
  readonly name: string;
  readonly settings: AppSettings;
  readonly createdAt: string;
  readonly disabledAt: string | null;
}

export interface AppKeyView {
  readonly id: string;
  readonly app: string;
  readonly label: string;
  readonly scopes: readonly AppKeyScope[];
  readonly createdAt: string;
  readonly revokedAt: string | null;
  /** About when it last authenticated a request (to the minute); null: never. */
  readonly lastUsedAt: string | null;
}

/** A key as issued: its view and the secret, shown only once. */
export interface IssuedAppKey extends AppKeyView {
  readonly key: string;
}

/** The settings an operator may change; each omitted one keeps its value. */
export interface AppSettingsInput {
  readonly sharedPool?: boolean;
  readonly corsOrigins?: readonly string[];
  readonly quotas?: Partial<AppSettings['quotas']>;
  readonly sessionSeconds?: number;
  readonly refreshSeconds?: number;
  readonly chat?: boolean;
}

const NAME_MAX = 60;
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$/;
const LIMITS = {
  sessionSeconds: { min: 60, max: 86_400 },
  refreshSeconds: { min: 3600, max: 365 * 86_400 },
  accountsPerDay: { min: 0, max: 10_000_000 },
  gamesPerDay: { min: 0, max: 100_000_000 },
  requestsPerSecond: { min: 1, max: 100_000 },
} as const;

/** Creates, lists and changes apps and their keys. */
export class AppService {
  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async createApp(input: { name: string; settings?: AppSettingsInput }): Promise<AppView> {
    const app: StoredApp = {
      id: `app_${randomBytes(10).toString('hex').slice(0, 16)}`,
      name: appName(input.name),
      settings: settingsWith(DEFAULT_APP_SETTINGS, input.settings ?? {}),
      createdAt: this.now().toISOString(),
      disabledAt: null,
    };
    if (!(await this.storage.apps.createApp(app))) throw new Error(`app id ${app.id} drawn twice`);
    return appView(app);
  }

  async listApps(): Promise<AppView[]> {
    return (await this.storage.apps.listApps()).map(appView);
  }

  async getApp(id: string): Promise<AppView> {
    return appView(await this.app(id));
  }

  /** Renames, resets settings, or disables (`disabled: true`) or enables an app. */
  async updateApp(
    id: string,
    input: { name?: string; settings?: AppSettingsInput; disabled?: boolean },
  ): Promise<AppView> {
    const app = await this.app(id);
    const disabledAt =
      input.disabled === undefined
        ? (app.disabledAt ?? null)
        : input.disabled
          ? (app.disabledAt ?? this.now().toISOString())
          : null;
    const next: StoredApp = {
      ...app,
      ...(input.name === undefined ? {} : { name: appName(input.name) }),
      settings: settingsWith(app.settings, input.settings ?? {}),
      disabledAt,
    };
    await this.storage.apps.saveApp(next);
    // Disabled just now: every node ends the streams of its keys and of the sessions they minted.
    if (disabledAt !== null && !app.disabledAt) {
      for (const key of await this.storage.apps.listKeys(app.id)) {
        if (key.revokedAt === null) await this.storage.events.announceRevocation(key.hash);
      }
    }
    return appView(next);
  }

  /** A new key for the app (the secret only in this answer); scopes default to every app key scope. */
  async createKey(
    appId: string,
    input: { label?: string; scopes?: readonly string[] } = {},
  ): Promise<IssuedAppKey> {
    const app = await this.app(appId);
    const active = (await this.storage.apps.listKeys(app.id)).filter((k) => k.revokedAt === null);
    if (active.length >= MAX_ACTIVE_KEYS) {
      throw new GameError(
        'APP_LIMIT_REACHED',
        `The app has ${MAX_ACTIVE_KEYS} active keys; revoke one first`,
        {
          what: 'keys',
          max: MAX_ACTIVE_KEYS,
        },
      );
    }
    const { token, hash } = newAppKey();
    const key: StoredAppKey = {
      id: `key_${randomBytes(8).toString('hex')}`,
      app: app.id,
      hash,
      scopes: parseKeyScopes(input.scopes),
      label: checkText('label', input.label ?? 'key').slice(0, 60),
      createdAt: this.now().toISOString(),
      revokedAt: null,
    };
    await this.storage.apps.addKey(key);
    return { ...keyView(key), key: token };
  }

  async listKeys(appId: string): Promise<AppKeyView[]> {
    const app = await this.app(appId);
    return (await this.storage.apps.listKeys(app.id)).map(keyView);
  }

  /** Revokes the key at once (its streams and its sessions' streams end within a second on every node). */
  async revokeKey(appId: string, keyId: string): Promise<AppKeyView> {
    const app = await this.app(appId);
    const key = await this.storage.apps.revokeKey(app.id, keyId, this.now().toISOString());
    if (!key) throw new GameError('APP_KEY_NOT_FOUND', `The app has no key ${keyId}`);
    return keyView(key);
  }

  /** The stored app; APP_NOT_FOUND for none (and for the open app, which has no settings of its own). */
  async app(id: string): Promise<StoredApp> {
    const app = id === OPEN_APP ? undefined : await this.storage.apps.getApp(id);
    if (!app) throw new GameError('APP_NOT_FOUND', `No app has the id ${id}`);
    return app;
  }
}

/** The operator key check: a constant-time comparison of hashes (the key itself is never compared byte by byte). */
export function isOperatorKey(given: string | undefined, operatorKey: string | undefined): boolean {
  if (!given || !operatorKey) return false;
  const a = Buffer.from(hashToken(given), 'hex');
  const b = Buffer.from(hashToken(operatorKey), 'hex');
  return timingSafeEqual(a, b);
}

export function appView(app: StoredApp): AppView {
  return {
    id: app.id,
    name: app.name,
    // Apps stored before chat have no `chat`: on.
    settings: { ...app.settings, chat: app.settings.chat ?? true },
    createdAt: app.createdAt,
    disabledAt: app.disabledAt ?? null,
  };
}

export function keyView(key: StoredAppKey): AppKeyView {
  return {
    id: key.id,
    app: key.app,
    label: key.label,
    scopes: key.scopes,
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
    lastUsedAt: key.lastUsedAt ?? null,
  };
}

function appName(name: string): string {
  checkText('name', name);
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > NAME_MAX) {
    throw new GameError('INVALID_INPUT', `name must be 1–${NAME_MAX} characters`, { field: 'name' });
  }
  return trimmed;
}

function parseKeyScopes(scopes: readonly string[] | undefined): AppKeyScope[] {
  if (scopes === undefined) return [...APP_KEY_SCOPES];
  const unknown = scopes.filter((s) => !(APP_KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new GameError('INVALID_INPUT', `scopes must be some of ${APP_KEY_SCOPES.join(', ')}`, {
      field: 'scopes',
    });
  }
  return [...new Set(scopes as AppKeyScope[])];
}

function bounded(field: keyof typeof LIMITS, value: number | undefined, current: number): number {
  if (value === undefined) return current;
  const { min, max } = LIMITS[field];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new GameError('INVALID_INPUT', `${field} must be a whole number from ${min} to ${max}`, { field });
  }
  return value;
}

/** `current` with `input` applied, each field checked. */
export function settingsWith(current: AppSettings, input: AppSettingsInput): AppSettings {
  const origins = input.corsOrigins ?? current.corsOrigins;
  if (origins.length > 20 || origins.some((o) => !ORIGIN.test(o))) {
    throw new GameError('INVALID_INPUT', 'corsOrigins must be at most 20 origins like https://app.example', {
      field: 'corsOrigins',
    });
  }
  const quotas = input.quotas ?? {};
  return {
    sharedPool: input.sharedPool ?? current.sharedPool,
    corsOrigins: [...new Set(origins)],
    quotas: {
      accountsPerDay: bounded('accountsPerDay', quotas.accountsPerDay, current.quotas.accountsPerDay),
      gamesPerDay: bounded('gamesPerDay', quotas.gamesPerDay, current.quotas.gamesPerDay),
      requestsPerSecond: bounded(
        'requestsPerSecond',
        quotas.requestsPerSecond,
        current.quotas.requestsPerSecond,
      ),
    },
    sessionSeconds: bounded('sessionSeconds', input.sessionSeconds, current.sessionSeconds),
    refreshSeconds: bounded('refreshSeconds', input.refreshSeconds, current.refreshSeconds),
    chat: input.chat ?? current.chat ?? true,
  };
}
