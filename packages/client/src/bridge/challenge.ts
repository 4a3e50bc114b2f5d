// Whom the bridge challenges, and what it says when a challenge is declined. The built-in AI is
// the accounts `ai-level-1` … `ai-level-8`, which take no plain challenge (the server declines one
// at once, reason `kind`): the bridge plays them through POST /challenges/ai instead, which starts
// the game at once.
import type { components } from '../generated/openapi';

type Challenge = components['schemas']['Challenge'];
type DeclineReason = NonNullable<Challenge['declineReason']>;

/** The built-in AI's levels (as POST /challenges/ai takes them). */
export const AI_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export type AiLevel = (typeof AI_LEVELS)[number];

/** Whom `--challenge` names: the built-in AI of a level, or an account. */
export type ChallengeTarget = { readonly ai: AiLevel } | { readonly account: string };

/**
 * Reads a `--challenge` value: `ai-level-N` (any case; N from 1 to 8) is the built-in AI, anything
 * else an account's username. Throws for `ai-level-` followed by anything but 1–8, since no account
 * may have such a name (the server reserves them) and a challenge to one could only fail.
 */
export function challengeTarget(value: string): ChallengeTarget {
  const ai = /^ai-level-(.*)$/i.exec(value.trim());
  if (!ai) return { account: value.trim() };
  const level = Number(ai[1]);
  if (!/^\d+$/.test(ai[1] ?? '') || !(AI_LEVELS as readonly number[]).includes(level)) {
    throw new Error(
      `--challenge ${value}: the built-in AI is ai-level-1 … ai-level-8 (a level from 1 to 8), not "${ai[1]}"`,
    );
  }
  return { ai: level as AiLevel };
}

/** What each decline reason means, for the log line. */
const REASONS: Record<DeclineReason, string> = {
  generic: 'declined',
  later: 'not now',
  kind: 'does not play this kind',
  options: 'does not play these options',
  timeControl: 'does not play this time control',
  tooManyGames: 'is playing its most games',
};

/** How the log names a challenge: `challenge <id> to <user> (<kind>)`. */
export function challengeHead(challenge: Challenge): string {
  return `challenge ${challenge.id} to ${challenge.destination ?? 'anyone'} (${challenge.kind})`;
}

/** Why a challenge will not become a game: its decline reason, or `expired`. */
export function refusal(challenge: Challenge): string {
  return challenge.status === 'expired' ? 'expired' : (challenge.declineReason ?? 'generic');
}

/**
 * The log line of a challenge that will not become a game: `challenge <id> to <user> (<kind>)
 * declined: <reason> (<meaning>)`, or `… expired unanswered`.
 */
export function declinedLine(challenge: Challenge): string {
  const to = challenge.destination ?? 'anyone';
  const head = challengeHead(challenge);
  if (challenge.status === 'expired') return `${head} expired unanswered`;
  const reason = challenge.declineReason ?? 'generic';
  return `${head} declined: ${reason} (${to} ${REASONS[reason]})`;
}
