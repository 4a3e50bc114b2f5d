import type { Storage, StoredAccount } from '../../store/store';
import { blocked } from '../accounts/blocks';
import { GameError } from '../errors';
import type { Quotas } from '../accounts/quotas';

// What an account may not challenge: an account that blocks it, and more open challenges than its
// caps (MAX_OPEN_CHALLENGES_PER_ACCOUNT, and _PER_PAIR to one account).

const DEFAULT_CHALLENGE_CAPS = { perAccount: 50, perPair: 3 };

/** BLOCKED when one of `accounts` (the destination, or the named players) blocks the caller. */
export async function checkBlocks(
  storage: Storage,
  caller: StoredAccount,
  accounts: readonly string[],
): Promise<void> {
  const others = accounts.filter((a) => a !== caller.id);
  const blocks = await Promise.all(others.map((a) => storage.blocks.isBlocked(a, caller.id)));
  if (blocks.some(Boolean)) throw blocked();
}

/** TOO_MANY_CHALLENGES when the challenger has its most open challenges, in all or to this account. */
export async function checkChallengeCaps(
  storage: Storage,
  quotas: Quotas,
  challenger: StoredAccount,
  destination: string | null,
  players: readonly string[] | null,
): Promise<void> {
  const perAccount = quotas.challengesPerAccount ?? DEFAULT_CHALLENGE_CAPS.perAccount;
  const perPair = quotas.challengesPerPair ?? DEFAULT_CHALLENGE_CAPS.perPair;
  const mine = (await storage.challenges.listOpen(challenger.id)).filter(
    (c) => c.challenger === challenger.id,
  );
  if (mine.length >= perAccount) {
    throw new GameError(
      'TOO_MANY_CHALLENGES',
      `${challenger.username} already has ${perAccount} open challenges, the most allowed`,
      { scope: 'account', max: perAccount },
    );
  }
  const targets = [destination, ...(players ?? [])].filter(
    (t): t is string => t !== null && t !== challenger.id,
  );
  for (const target of targets) {
    const toTarget = mine.filter((c) => c.destination === target || (c.players?.includes(target) ?? false));
    if (toTarget.length >= perPair) {
      throw new GameError(
        'TOO_MANY_CHALLENGES',
        `${challenger.username} already has ${perPair} open challenges to that account, the most allowed`,
        { scope: 'pair', max: perPair },
      );
    }
  }
}
