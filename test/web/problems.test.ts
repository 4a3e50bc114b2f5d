// The playground's error sentences (web/src/play/problems.ts): every code a player can meet has a
// sentence, and the details some codes carry (when a claim opens, how long to wait, the limit) are
// in the words; problems answered by a live server read as sentences, the code kept apart.
import { GAME_ERROR_CODES } from '../../src/vocabulary';
import {
  describeProblem,
  duration,
  NOT_MET_IN_PLAYGROUND,
  PROBLEM_SENTENCES,
} from '../../web/src/play/problems';
import { appHarness, call } from '../support/app';

describe('error sentences of the playground', () => {
  const harness = appHarness();
  afterAll(() => harness.stopAll());

  it('has a sentence for every code a player can meet, and names the others', () => {
    const codes = Object.keys(GAME_ERROR_CODES);
    const missing = codes.filter((c) => !(c in PROBLEM_SENTENCES) && !NOT_MET_IN_PLAYGROUND.includes(c));
    expect(missing).toEqual([]);
    expect(NOT_MET_IN_PLAYGROUND.filter((c) => c in PROBLEM_SENTENCES)).toEqual([]);
    // Every name of the exclusion list is a real code (no stale entries).
    expect(NOT_MET_IN_PLAYGROUND.filter((c) => !codes.includes(c))).toEqual([]);
    for (const code of Object.keys(PROBLEM_SENTENCES)) {
      const shown = describeProblem({ code, detail: 'server words' });
      expect([code, shown.code, shown.sentence.length > 10]).toEqual([code, code, true]);
      // A sentence, not the code or the server's English.
      expect(shown.sentence).not.toContain(code);
      expect(/[.!?]$/.test(shown.sentence)).toBe(true);
    }
  });

  it('puts the details in words: when a claim opens, how long to wait, the limit', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const claim = describeProblem(
      { code: 'CLAIM_TOO_EARLY', claimableAt: '2026-01-03T14:30:00Z', detail: 'x' },
      now,
    );
    expect(claim.sentence).toMatch(/^Your opponent may still move: you can claim in 2 days \(.+\)\.$/);
    expect(describeProblem({ code: 'RATE_LIMITED', retryAfterSeconds: 12 }).sentence).toBe(
      'Too many requests in a short time. Try again in 12 seconds.',
    );
    expect(describeProblem({ code: 'TOO_MANY_AI_GAMES', max: 3 }).sentence).toContain('(at most 3)');
    expect(describeProblem({ code: 'TAKEBACK_NOT_ALLOWED', reason: 'rated' }).sentence).toBe(
      'Rated games allow no takebacks.',
    );
    expect(describeProblem({ code: 'CHALLENGE_CLOSED', challengeStatus: 'expired' }).sentence).toBe(
      'That challenge is no longer open: it was expired.',
    );
    expect([duration(1000), duration(90_000), duration(3 * 3600_000 + 60_000)]).toEqual([
      '1 second',
      '2 minutes',
      '3 hours 1 minute',
    ]);
    // A code this page does not know: the server's own message, and the code.
    expect(describeProblem({ code: 'SOMETHING_NEW', detail: 'Server words.' })).toEqual({
      sentence: 'Server words.',
      code: 'SOMETHING_NEW',
      detail: 'Server words.',
    });
    expect(describeProblem(new TypeError('Failed to fetch')).sentence).toMatch(/could not be reached/);
  });

  it('reads problems a live server answers as sentences', async () => {
    const run = await harness.start('memory');
    const created = await call(run, 'POST', '/games', { kind: 'kalah' });
    const [south, north] = created.body.seatTokens.map((t: any) => ({ authorization: `Bearer ${t.token}` }));
    const id = created.body.game.id;
    const notYours = await call(run, 'POST', `/games/${id}/moves`, { move: '1' }, north);
    expect(describeProblem(notYours.body)).toMatchObject({
      sentence: 'It is not your turn: wait for your opponent’s move.',
      code: 'NOT_YOUR_TURN',
    });
    const illegal = await call(run, 'POST', `/games/${id}/moves`, { move: '9' }, south);
    expect(describeProblem(illegal.body).sentence).toMatch(/^That move is not allowed here/);
    expect((await call(run, 'POST', `/games/${id}/moves`, { move: '1' }, south)).status).toBe(200);
    // South waits (north to move): a claim is too early, and the sentence says when it opens.
    const early = await call(run, 'POST', `/games/${id}/victory/claim`, {}, south);
    expect(early.body.code).toBe('CLAIM_TOO_EARLY');
    expect(describeProblem(early.body).sentence).toMatch(/you can claim in 3 days \(/);
    const position = await call(run, 'POST', '/games', { kind: 'kalah', position: 'nonsense' });
    const shown = describeProblem(position.body);
    expect(shown.code).toBe('INVALID_POSITION');
    expect(shown.sentence).toMatch(/^The start position was not accepted/);
  });
});
