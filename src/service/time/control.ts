import type { TimeControl } from '../../store/store';
import { GameError } from '../errors';

/** What clients send: a type and its numbers. */
export interface TimeControlInput {
  readonly type?: string;
  readonly initialSeconds?: number;
  readonly incrementSeconds?: number;
  readonly daysPerMove?: number;
}

export const UNLIMITED: TimeControl = { type: 'unlimited' };

/** Validates a time control; omitted means unlimited. */
export function parseTimeControl(input: TimeControlInput | undefined | null): TimeControl {
  if (!input) return UNLIMITED;
  switch (input.type) {
    case 'unlimited':
      return UNLIMITED;
    case 'realtime': {
      const initialSeconds = wholeNumber(input.initialSeconds, 'initialSeconds', 10, 3 * 60 * 60);
      const incrementSeconds = wholeNumber(input.incrementSeconds ?? 0, 'incrementSeconds', 0, 180);
      return { type: 'realtime', initialSeconds, incrementSeconds };
    }
    case 'correspondence':
      return { type: 'correspondence', daysPerMove: wholeNumber(input.daysPerMove, 'daysPerMove', 1, 14) };
    default:
      throw new GameError('INVALID_INPUT', 'timeControl.type must be unlimited, realtime or correspondence', {
        field: 'timeControl.type',
      });
  }
}

function wholeNumber(value: number | undefined, field: string, min: number, max: number): number {
  if (value === undefined || !Number.isInteger(value) || value < min || value > max) {
    throw new GameError(
      'INVALID_INPUT',
      `timeControl.${field} must be a whole number from ${min} to ${max}`,
      {
        field: `timeControl.${field}`,
      },
    );
  }
  return value;
}

/** A stable text of a time control, for matching seeks. */
export function timeControlKey(tc: TimeControl): string {
  switch (tc.type) {
    case 'unlimited':
      return 'unlimited';
    case 'realtime':
      return `realtime:${tc.initialSeconds}+${tc.incrementSeconds}`;
    case 'correspondence':
      return `correspondence:${tc.daysPerMove}d`;
  }
}

/**
 * The value of a game record's TimeControl tag (PGN standard 9.6.1, which PDN adopts): `-` without
 * a limit, `<seconds>+<increment>` for a Fischer clock, and one move per period (`1/<seconds>`) for
 * correspondence.
 */
export function recordTimeControl(tc: TimeControl | undefined): string {
  switch (tc?.type ?? 'unlimited') {
    case 'realtime': {
      const rt = tc as Extract<TimeControl, { type: 'realtime' }>;
      return `${rt.initialSeconds}+${rt.incrementSeconds}`;
    }
    case 'correspondence':
      return `1/${(tc as Extract<TimeControl, { type: 'correspondence' }>).daysPerMove * 24 * 60 * 60}`;
    default:
      return '-';
  }
}
