import { randomBytes } from 'node:crypto';
import {
  ACCOUNT_KINDS,
  ACCOUNT_STATUSES,
  appOf,
  type AccountKind,
  type AccountStatus,
  type Storage,
  type StoredAccount,
} from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import { checkText } from '../accounts/names';
import { checkUsername, usernameTaken } from '../accounts/service';
import { GameError } from '../errors';
import { appView, type AppView } from './service';
import type { AppUsage } from './usage';

// The accounts an app makes for its users, named by the app's own ids (external ids): get-or-create,
// read, change and list, all with an app key (scope app:accounts) and no Boardhost-Account. Each is
// an ordinary account (it plays, challenges, has a feed) whose id `<app>.<16 hex>` never changes;
// its username (unique in the app) and display name may.

const EXTERNAL_ID_MAX = 128;
const DISPLAY_NAME_MAX = 50;
const METADATA_KEYS = 20;
const METADATA_KEY = /^[A-Za-z0-9_.-]{1,40}$/;
const METADATA_VALUE_MAX = 256;
const METADATA_BYTES = 4096;
/** Generated usernames drawn before giving up (a clash of 8 hex digits in one app is rare). */
const USERNAME_DRAWS = 5;
const PAGE_MAX = 100;

/** An app account as its app sees it (never shown to others: profiles show AccountView). */
export interface AppAccountView {
  readonly id: string;
  readonly app: string;
  readonly externalId: string;
  readonly username: string;
  readonly displayName: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  readonly kind: AccountKind;
  readonly status: AccountStatus;
  readonly statusReason: string | null;
  readonly createdAt: string;
}

export interface AppAccountInput {
  readonly username?: string;
  readonly displayName?: string | null;
  readonly metadata?: Readonly<Record<string, unknown>> | null;
  readonly kind?: string;
}

export class AppAccountService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly usage: AppUsage,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The calling app (any scope). */
  async app(credential: Credential): Promise<AppView> {
    return appView((await this.auth.requireApp(credential)).app);
  }

  /**
   * The app's account for `externalId`, made if there is none (`created`); an existing one is
   * returned unchanged whatever `input` says (PATCH changes it). A creation counts against the app's
   * accountsPerDay; no username given: `player-<8 hex>`.
   */
  async ensure(
    credential: Credential,
    externalId: string,
    input: AppAccountInput = {},
  ): Promise<{ created: boolean; account: AppAccountView }> {
    const { app } = await this.auth.requireApp(credential, 'app:accounts');
    const external = checkExternalId(externalId);
    if (input.username !== undefined) checkUsername(input.username);
    const kind = kindOf(input.kind);
    const displayName = displayNameOf(input.displayName);
    const metadata = metadataOf(input.metadata);
    const existing = await this.storage.accounts.accountByExternalId(app.id, external);
    if (existing) return { created: false, account: appAccountView(existing) };
    await this.usage.account(app.id);
    for (let draw = 0; ; draw++) {
      const username = input.username ?? `player-${randomBytes(4).toString('hex')}`;
      const result = await this.storage.accounts.getOrCreateAppAccount({
        id: `${app.id}.${randomBytes(8).toString('hex')}`,
        username,
        kind,
        bot: null,
        createdAt: this.now().toISOString(),
        app: app.id,
        externalId: external,
        ...(displayName ? { displayName } : {}),
        ...(metadata ? { metadata } : {}),
      });
      if (result.status !== 'username-taken') {
        if (result.status === 'existing') await this.usage.accountNotMade(app.id);
        else this.usage.accountMade(app.id);
        return { created: result.status === 'created', account: appAccountView(result.account) };
      }
      if (input.username !== undefined || draw + 1 >= USERNAME_DRAWS) {
        await this.usage.accountNotMade(app.id);
        throw usernameTaken(username);
      }
    }
  }

  async get(credential: Credential, externalId: string): Promise<AppAccountView> {
    const { app } = await this.auth.requireApp(credential, 'app:accounts');
    return appAccountView(await this.find(app.id, externalId));
  }

  /**
   * Changes the username (USERNAME_TAKEN when another account of the app holds it), the display
   * name (null: none) or the metadata (replaced whole; null: none). The id never changes, so the
   * account's games, ratings and feed stay its own.
   */
  async update(
    credential: Credential,
    externalId: string,
    input: Omit<AppAccountInput, 'kind'>,
  ): Promise<AppAccountView> {
    const { app } = await this.auth.requireApp(credential, 'app:accounts');
    if (input.username !== undefined) checkUsername(input.username);
    const displayName = displayNameOf(input.displayName);
    const metadata = metadataOf(input.metadata);
    const account = await this.find(app.id, externalId);
    const { displayName: before, metadata: held, ...rest } = account;
    const name = input.displayName === undefined ? before : displayName;
    const pairs = input.metadata === undefined ? held : metadata;
    const next: StoredAccount = {
      ...rest,
      ...(input.username === undefined ? {} : { username: input.username }),
      ...(name === undefined ? {} : { displayName: name }),
      ...(pairs === undefined ? {} : { metadata: pairs }),
    };
    const saved = await this.storage.accounts.updateAppAccount(next);
    if (saved === 'username-taken') throw usernameTaken(next.username);
    if (saved === 'missing') throw notFound(externalId);
    return appAccountView(next);
  }

  /** The app's accounts by id, after `after`, at most `limit` (1–100, default 50); `next` null on the last page. */
  async list(
    credential: Credential,
    input: { after?: string; limit?: number } = {},
  ): Promise<{ items: AppAccountView[]; next: string | null }> {
    const { app } = await this.auth.requireApp(credential, 'app:accounts');
    const limit = input.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX) {
      throw new GameError('INVALID_INPUT', `limit must be a whole number from 1 to ${PAGE_MAX}`, {
        field: 'limit',
      });
    }
    const page = await this.storage.accounts.listAppAccounts(app.id, input.after, limit + 1);
    const items = page.slice(0, limit).map(appAccountView);
    return { items, next: page.length > limit ? (items[items.length - 1]?.id ?? null) : null };
  }

  private async find(app: string, externalId: string): Promise<StoredAccount> {
    const account = await this.storage.accounts.accountByExternalId(app, checkExternalId(externalId));
    if (!account || appOf(account) !== app) throw notFound(externalId);
    return account;
  }
}

export function appAccountView(account: StoredAccount): AppAccountView {
  return {
    id: account.id,
    app: appOf(account),
    externalId: account.externalId ?? '',
    username: account.username,
    displayName: account.displayName ?? null,
    metadata: account.metadata ?? {},
    kind: account.kind,
    status: account.status ?? ACCOUNT_STATUSES[0],
    statusReason: account.statusReason ?? null,
    createdAt: account.createdAt,
  };
}

function notFound(externalId: string): GameError {
  return new GameError('ACCOUNT_NOT_FOUND', `The app has no account with the external id ${externalId}`);
}

/** An external id: 1–128 characters, none of them a control, format or bidi character. */
export function checkExternalId(externalId: string): string {
  if (typeof externalId !== 'string' || externalId.length < 1 || externalId.length > EXTERNAL_ID_MAX) {
    throw new GameError('INVALID_INPUT', `externalId must be 1–${EXTERNAL_ID_MAX} characters`, {
      field: 'externalId',
    });
  }
  return checkText('externalId', externalId);
}

function kindOf(kind: string | undefined): AccountKind {
  if (kind === undefined) return 'human';
  if (!(ACCOUNT_KINDS as readonly string[]).includes(kind)) {
    throw new GameError('INVALID_INPUT', `kind must be ${ACCOUNT_KINDS.join(' or ')}`, { field: 'kind' });
  }
  return kind as AccountKind;
}

/** A display name (1–50 characters after trimming, checkText); null or undefined: none. */
function displayNameOf(value: string | null | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  checkText('displayName', value);
  const trimmed = value.trim();
  const length = [...trimmed].length;
  if (length < 1 || length > DISPLAY_NAME_MAX) {
    throw new GameError('INVALID_INPUT', `displayName must be 1–${DISPLAY_NAME_MAX} characters`, {
      field: 'displayName',
    });
  }
  return trimmed;
}

/** Metadata: at most 20 keys of 1–40 of [A-Za-z0-9_.-], string values of at most 256, 4 kB of JSON in all. */
function metadataOf(
  value: Readonly<Record<string, unknown>> | null | undefined,
): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  const bad = (message: string) => new GameError('INVALID_INPUT', message, { field: 'metadata' });
  if (typeof value !== 'object' || Array.isArray(value)) throw bad('metadata must be an object of strings');
  const entries = Object.entries(value);
  if (entries.length > METADATA_KEYS) throw bad(`metadata may hold at most ${METADATA_KEYS} keys`);
  for (const [key, item] of entries) {
    if (!METADATA_KEY.test(key)) throw bad(`metadata keys must be 1–40 of A-Z a-z 0-9 _ . - (not "${key}")`);
    if (typeof item !== 'string' || item.length > METADATA_VALUE_MAX) {
      throw bad(`metadata.${key} must be a string of at most ${METADATA_VALUE_MAX} characters`);
    }
    checkText(`metadata.${key}`, item);
  }
  const metadata = Object.fromEntries(entries) as Record<string, string>;
  if (Buffer.byteLength(JSON.stringify(metadata)) > METADATA_BYTES) {
    throw bad(`metadata may take at most ${METADATA_BYTES} bytes of JSON`);
  }
  return entries.length === 0 ? undefined : metadata;
}
