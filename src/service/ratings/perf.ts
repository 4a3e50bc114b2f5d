// A game's perf: the rating pool its result counts in (lichess's word): its kind and its speed.
import type { GameKind } from '../../engines/types';
import type { TimeControl } from '../../store/ports/time-control';
import type { Speed } from '../../vocabulary';
export { SPEEDS, type Speed } from '../../vocabulary';

/** Realtime clocks are one speed; days per move and unlimited games are correspondence. */
export function speedOf(timeControl: TimeControl | undefined): Speed {
  return timeControl?.type === 'realtime' ? 'realtime' : 'correspondence';
}

export interface Perf {
  readonly kind: GameKind;
  readonly speed: Speed;
}

/** The perf's key in stores and URLs: `kalah.realtime`. */
export function perfKey(perf: Perf): string {
  return `${perf.kind}.${perf.speed}`;
}
