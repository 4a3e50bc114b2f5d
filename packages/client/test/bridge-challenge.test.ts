// What the bridge makes of `--challenge` and how it names a challenge that will not become a game
// (packages/client/src/bridge/challenge.ts); the bridge itself runs in test/bridge*.test.ts.
import { challengeTarget, declinedLine, refusal } from '../src/bridge/challenge';
import type { Challenge } from '../src';

const challenge = (over: Partial<Challenge>): Challenge =>
  ({
    id: 'c1',
    destination: 'picky',
    kind: 'congo',
    status: 'open',
    declineReason: null,
    ...over,
  }) as Challenge;

test('ai-level-1 … ai-level-8, in any case, are the AI; other names are accounts; other levels are refused', () => {
  expect(challengeTarget('ai-level-1')).toEqual({ ai: 1 });
  expect(challengeTarget('AI-Level-8')).toEqual({ ai: 8 });
  expect(challengeTarget('ann')).toEqual({ account: 'ann' });
  expect(challengeTarget('ai-levels')).toEqual({ account: 'ai-levels' });
  for (const bad of [
    'ai-level-0',
    'ai-level-9',
    'ai-level-',
    'ai-level-03x',
    'ai-level-2.0',
    'ai-level- 3',
  ]) {
    expect(() => challengeTarget(bad)).toThrow(
      `--challenge ${bad}: the built-in AI is ai-level-1 … ai-level-8`,
    );
  }
});

test('a declined challenge is logged with its reason and what it means; an expired one says so', () => {
  const declined = challenge({ status: 'declined', declineReason: 'timeControl' });
  expect(declinedLine(declined)).toBe(
    'challenge c1 to picky (congo) declined: timeControl (picky does not play this time control)',
  );
  expect(refusal(declined)).toBe('timeControl');
  const expired = challenge({ status: 'expired' });
  expect(declinedLine(expired)).toBe('challenge c1 to picky (congo) expired unanswered');
  expect(refusal(expired)).toBe('expired');
  expect(declinedLine(challenge({ status: 'declined', destination: null }))).toBe(
    'challenge c1 to anyone (congo) declined: generic (anyone declined)',
  );
});
