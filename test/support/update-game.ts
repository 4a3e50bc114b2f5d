import {
  accountEffectsOf,
  clockIndexOf,
  type GameStore,
  type Notice,
  type RatingResult,
  type StoredGame,
  type UpdateResult,
} from '../../src/store/store';

/**
 * GameStore.update with the effects the service would give it for the account indexes (the store
 * decides none: see service/game/effects.ts), and these notices and rated results.
 */
export function updateGame(
  games: GameStore,
  next: StoredGame,
  expectedVersion: number,
  idempotency?: { readonly key: string; readonly fingerprint: string },
  notices: readonly Notice[] = [],
  ratings: readonly RatingResult[] = [],
): Promise<UpdateResult> {
  const clock = clockIndexOf(next);
  return games.update(next, expectedVersion, idempotency, {
    notices,
    accounts: accountEffectsOf(next, ratings, clock),
    clock,
  });
}
