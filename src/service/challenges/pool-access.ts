import { OPEN_APP, type StoredChallenge } from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import type { Pools } from '../apps/pools';
import { GameError } from '../errors';

// Challenges never cross pools (apps/pools.ts): one is read and answered only in its challenger's
// pool, or by an account it names (the AI, challenged from any pool, answers its own); anyone else
// is told it does not exist.

/** Everyone a challenge concerns: challenger, destination, named players and acceptors. */
export function involvedIn(c: StoredChallenge): string[] {
  return [
    ...new Set([
      c.challenger,
      ...(c.destination ? [c.destination] : []),
      ...(c.players ?? []),
      ...c.accepted,
    ]),
  ];
}

/**
 * Who reads a challenge: the credential's pool and account. A credential that proves nothing reads
 * as anonymous, in the open pool, as public reads always did.
 */
export async function readerOf(
  auth: Authenticator,
  pools: Pools,
  credential: Credential | undefined,
): Promise<{ pool: string; account?: string }> {
  if (credential?.token === undefined) return { pool: OPEN_APP };
  const caller = await auth.identify(credential).catch((error: unknown) => {
    if (error instanceof GameError) return undefined;
    throw error;
  });
  if (!caller) return { pool: OPEN_APP };
  const pool = await pools.ofCaller(caller);
  return caller.kind === 'account' ? { pool, account: caller.account.id } : { pool };
}

/** CHALLENGE_NOT_FOUND, as for a missing one, unless `pool` is the challenge's or `account` is in it. */
export async function requireSeen(
  pools: Pools,
  c: StoredChallenge,
  pool: string,
  account: string | undefined,
): Promise<void> {
  if (account !== undefined && involvedIn(c).includes(account)) return;
  if ((await pools.ofAccount(c.challenger)) !== pool) {
    throw new GameError('CHALLENGE_NOT_FOUND', `No challenge ${c.id}`);
  }
}
