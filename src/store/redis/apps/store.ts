import type Redis from 'ioredis';
import type { AppStore, StoredApp, StoredAppKey, StoredSession, StoredToken } from '../../store';

const TODO = (): never => {
  throw new Error('RedisAppStore: not built yet');
};

/** Apps, their keys and sessions in Redis. (Base stub: the store helper builds it.) */
export class RedisAppStore implements AppStore {
  constructor(
    readonly redis: Redis,
    readonly prefix: string,
  ) {}

  createApp(_app: StoredApp): Promise<boolean> {
    return TODO();
  }
  getApp(_id: string): Promise<StoredApp | undefined> {
    return TODO();
  }
  listApps(): Promise<StoredApp[]> {
    return TODO();
  }
  saveApp(_app: StoredApp): Promise<void> {
    return TODO();
  }
  addKey(_key: StoredAppKey): Promise<void> {
    return TODO();
  }
  keyByHash(_hash: string): Promise<StoredAppKey | undefined> {
    return TODO();
  }
  getKey(_app: string, _id: string): Promise<StoredAppKey | undefined> {
    return TODO();
  }
  listKeys(_app: string): Promise<StoredAppKey[]> {
    return TODO();
  }
  revokeKey(_app: string, _id: string, _at: string): Promise<StoredAppKey | undefined> {
    return TODO();
  }
  touchKey(_hash: string, _at: string): Promise<void> {
    return TODO();
  }
  createSession(_session: StoredSession, _accessToken: StoredToken): Promise<void> {
    return TODO();
  }
  getSession(_app: string, _id: string): Promise<StoredSession | undefined> {
    return TODO();
  }
  sessionByRefreshHash(_hash: string): Promise<{ session: StoredSession; current: boolean } | undefined> {
    return TODO();
  }
  rotateSession(_next: StoredSession, _expected: string, _accessToken: StoredToken): Promise<boolean> {
    return TODO();
  }
  revokeSession(_app: string, _id: string, _at: string): Promise<StoredSession | undefined> {
    return TODO();
  }
  listSessions(_account: string): Promise<StoredSession[]> {
    return TODO();
  }
  deleteSessions(_account: string): Promise<void> {
    return TODO();
  }
}
