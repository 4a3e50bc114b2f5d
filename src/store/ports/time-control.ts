export { TIME_CONTROL_TYPES, type TimeControlType } from '../../vocabulary';

// Time controls (chosen in a challenge or seek; stored with the game).

export type TimeControl =
  | { readonly type: 'unlimited' }
  /** Fischer: initial time plus an increment per move. */
  | { readonly type: 'realtime'; readonly initialSeconds: number; readonly incrementSeconds: number }
  | { readonly type: 'correspondence'; readonly daysPerMove: number };
