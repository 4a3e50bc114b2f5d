import type { StoredAccount } from '../../store/store';
import { GameError } from '../errors';

// Suspension and bans (service/apps/lifecycle.ts) stop new play: every path that creates a game, a
// challenge, a seek, a bulk pairing or a tournament entry asks here, for each account it would seat
// or engage. Ongoing games are not affected (moves go on; a ban ends them itself).

/** Refuses with ACCOUNT_RESTRICTED (status, reason) when any of `accounts` is suspended or banned. */
export function refuseRestricted(...accounts: ReadonlyArray<StoredAccount | undefined | null>): void {
  for (const account of accounts) {
    const status = account?.status;
    if (!account || status === undefined || status === 'active') continue;
    throw new GameError(
      'ACCOUNT_RESTRICTED',
      `The account ${account.username} is ${status}: it cannot start new games, challenges, seeks or tournament entries`,
      {
        account: account.id,
        status,
        ...(account.statusReason ? { reason: account.statusReason } : {}),
      },
    );
  }
}
