// Claims against an opponent who stays away, in unlimited games: "Claim victory" and "Claim draw"
// show only from the game's `claimableAt` on (while the opponent is to move); before it, the time
// left until then. The page re-renders itself when that moment comes.
import { useEffect, useState } from 'preact/hooks';
import type { Game } from '../api/client';
import { claimOpens } from './problems';

/** The current time, re-read every `everyMs` and once at `at` (when given). */
function useNow(everyMs: number, at: number | undefined): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const tick = () => setNow(Date.now());
    const timer = setInterval(tick, everyMs);
    const wait = at === undefined ? undefined : at - Date.now();
    // setTimeout holds at most ~24.8 days; the interval covers longer waits.
    const once =
      wait !== undefined && wait > 0 && wait < 2 ** 31 - 1 ? setTimeout(tick, wait + 20) : undefined;
    return () => {
      clearInterval(timer);
      clearTimeout(once);
    };
  }, [everyMs, at]);
  return now;
}

export function Claims(props: {
  readonly game: Game;
  readonly seat: number;
  readonly busy: boolean;
  readonly onClaim: (what: 'victory' | 'draw') => void;
}) {
  const { game, seat, busy, onClaim } = props;
  // When the seat waiting may claim; null while no claim is possible (a clock, or one's own turn).
  const claimableAt = game.claimableAt;
  const at = claimableAt === null ? undefined : Date.parse(claimableAt);
  const now = useNow(at !== undefined && at - Date.now() < 120_000 ? 1000 : 30_000, at);
  if (game.status !== 'ongoing' || game.toMove === seat || at === undefined) return null;
  if (now < at) {
    const opponent = game.seats[1 - seat]?.name ?? 'your opponent';
    return (
      <p class="claim-wait" data-claimable-at={claimableAt}>
        {`If ${opponent} does not move, you can claim victory or a draw ${claimOpens(claimableAt ?? '', now)}.`}
      </p>
    );
  }
  return (
    <>
      <button type="button" disabled={busy} onClick={() => onClaim('victory')}>
        Claim victory
      </button>
      <button type="button" disabled={busy} onClick={() => onClaim('draw')}>
        Claim draw
      </button>
    </>
  );
}
