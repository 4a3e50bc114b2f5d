import { useEffect, useState } from 'preact/hooks';
import type { Game } from '../api/client';
import { clockRemaining, formatClock } from './state';

/** Realtime clocks ticking down for the side to move; a correspondence deadline; nothing otherwise. */
export function Clocks({ game }: { game: Game }) {
  const [now, setNow] = useState(Date.now());
  const running = game.status === 'ongoing' && (game.clock?.runningSeat ?? null) !== null;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [running]);
  if (game.clock) {
    const left = clockRemaining(game.clock, now);
    return (
      <div class="clocks" role="group" aria-label="Clocks">
        {game.seats.map((seat) => (
          <div
            key={seat.seat}
            class={`clock${game.clock?.runningSeat === seat.seat ? ' running' : ''}`}
            data-seat={seat.seat}
          >
            <span class="name">{seat.name}</span>{' '}
            <span class="time">{formatClock(left[seat.seat] ?? 0)}</span>
          </div>
        ))}
      </div>
    );
  }
  if (game.deadlineAt && game.status === 'ongoing') {
    return (
      <p class="deadline">{`${game.toMoveName ?? ''} must move by ${new Date(game.deadlineAt).toLocaleString()}`}</p>
    );
  }
  return null;
}
