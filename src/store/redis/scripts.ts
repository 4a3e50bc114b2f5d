import * as appScripts from './apps/scripts';
import * as bulkScripts from './bulks/scripts';
import * as challengeScripts from './challenges/scripts';
import * as chatScripts from './chat/scripts';
import * as feedScripts from './feed/scripts';
import * as gameScripts from './games/scripts';
import * as accountScripts from './lua';
import * as migrationScripts from './migrate/scripts';
import * as ratingScripts from './ratings/scripts';
import * as relayScripts from './relay/scripts';
import * as tournamentScripts from './tournaments/scripts';
import * as webhookScripts from './webhooks/scripts';
import type { AnyScript } from './script';

// Every Lua script of the Redis stores, in one list: the storage factory (redisStorage) defines
// them all on its data client, in one loop, before any store runs a command (a script run on a
// client it is not defined on throws).

function definitions(module: Record<string, unknown>): AnyScript[] {
  return Object.values(module).filter(
    (value): value is AnyScript =>
      typeof value === 'object' && value !== null && 'lua' in value && 'numberOfKeys' in value,
  );
}

export const SCRIPTS: readonly AnyScript[] = [
  ...definitions(accountScripts),
  ...definitions(appScripts),
  ...definitions(relayScripts),
  ...definitions(feedScripts),
  ...definitions(ratingScripts),
  ...definitions(gameScripts),
  ...definitions(challengeScripts),
  ...definitions(chatScripts),
  ...definitions(bulkScripts),
  ...definitions(webhookScripts),
  ...definitions(tournamentScripts),
  ...definitions(migrationScripts),
];
