// Time controls (chosen in a challenge or seek; stored with the game).

export const TIME_CONTROL_TYPES = ['unlimited', 'realtime', 'correspondence'] as const;
export type TimeControlType = (typeof TIME_CONTROL_TYPES)[number];

export type TimeControl =
  | { readonly type: 'unlimited' }
  /** Fischer: initial time plus an increment per move. */
  | { readonly type: 'realtime'; readonly initialSeconds: number; readonly incrementSeconds: number }
  | { readonly type: 'correspondence'; readonly daysPerMove: number };
