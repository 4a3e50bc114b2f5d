import { registerEnumType } from 'type-graphql';
import {
  BOARD_FAMILIES,
  CHAT_MODES,
  CHALLENGE_STATUSES,
  DECLINE_REASONS,
  GAME_VISIBILITIES,
  kindIds,
  GAME_STATUSES,
  REMATCH_STATUSES,
  OUTCOME_REASONS,
  TIME_CONTROL_TYPES,
} from '../../vocabulary';

// GraphQL enums made from the code's one list of each closed set (engines/types.ts, store/store.ts),
// so a value added there appears in the schema. GraphQL names allow no `-` or `:`, so each value's
// name is the value with those turned into `_` (russian-draughts → russian_draughts, lion-captured →
// lion_captured); every other value keeps its spelling, so most answers read as before.

/** The GraphQL name of a value. */
export function enumName(value: string): string {
  return value.replace(/[^_0-9A-Za-z]/g, '_');
}

/** Registers `list` as the GraphQL enum `name`; the returned object is what type-graphql takes. */
function enumOf<const T extends string>(
  list: readonly T[],
  name: string,
  description: string,
): Record<string, T> {
  const members = Object.fromEntries(list.map((value) => [enumName(value), value])) as Record<string, T>;
  registerEnumType(members, { name, description });
  return members;
}

export const GameKindEnum = enumOf(kindIds(), 'GameKind', 'The games this server hosts.');
export const BoardFamilyEnum = enumOf(
  BOARD_FAMILIES,
  'BoardFamily',
  "How a kind's moves are described and its board drawn.",
);
export const GameStatusEnum = enumOf(GAME_STATUSES, 'GameStatus', 'Whether a game goes on.');
export const RematchStatusEnum = enumOf(REMATCH_STATUSES, 'RematchStatus', 'What a rematch request did.');
export const OutcomeReasonEnum = enumOf(OUTCOME_REASONS, 'OutcomeReason', 'Why a game ended.');
export const TimeControlTypeEnum = enumOf(
  TIME_CONTROL_TYPES,
  'TimeControlType',
  'How long players may think: no limit, realtime clocks, or days per move.',
);
export const ChallengeStatusEnum = enumOf(CHALLENGE_STATUSES, 'ChallengeStatus', 'Where a challenge stands.');
export const DeclineReasonEnum = enumOf(DECLINE_REASONS, 'DeclineReason', 'Why a challenge was declined.');
export const ChatModeEnum = enumOf(
  CHAT_MODES,
  'ChatMode',
  'Who may chat in a game: seats (the two players), everyone (players and readers with an account), off.',
);
export const GameVisibilityEnum = enumOf(
  GAME_VISIBILITIES,
  'GameVisibility',
  'Who may read and watch a game. public: anyone (listed and on TV when of the open pool); unlisted: anyone ' +
    "with its id, never listed; private: its seats, its app's key and invited spectators only.",
);

/**
 * A value given as a String argument (kind, status, type), accepting the enum's GraphQL name too, so
 * what a client read from an enum field can be sent back (`russian_draughts` → `russian-draughts`).
 * Anything else is passed on unchanged for the service to refuse.
 */
export function fromEnumInput<T extends string>(list: readonly T[], value: string): T | string {
  return list.find((v) => v === value) ?? list.find((v) => enumName(v) === value) ?? value;
}

/** A `kind` argument: a GameKind value or its GraphQL name. */
export function kindInput(value: string): string {
  return fromEnumInput(kindIds(), value);
}
