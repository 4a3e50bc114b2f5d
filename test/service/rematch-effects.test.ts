// What a write of a finished game's rematch record causes, decided without I/O (effectsOf): the
// offer is told to the opponent only, the refusal to the offerer only, the link is a game.updated;
// nothing of a finished game's indexes changes (no ratings again, no TV, no deadline).
import { Authenticator } from '../../src/service/accounts/auth';
import { effectsOf } from '../../src/service/game/effects';
import { DEFAULT_ABANDON_CLAIM_MS } from '../../src/service/game/decide';
import { rematchNotices } from '../../src/service/game/rematch-rules';
import { GameService } from '../../src/service/game/service';
import { toGameHeadView } from '../../src/service/game/view';
import { createMemoryStorage } from '../../src/store/memory';
import type { RematchRecord, StoredGame } from '../../src/store/store';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const storage = createMemoryStorage(() => T0);
const games = new GameService(storage, new Authenticator(storage.accounts, storage.apps, () => new Date(T0)));
const engine = games.engineFor('kalah');

function finishedGame(accounts: [string | null, string | null] = ['alice', 'bob']): StoredGame {
  const game = games.newGame({
    kind: 'kalah',
    options: games.parseOptions(engine, {}),
    first: 0,
    accounts,
    timeControl: { type: 'unlimited' },
    at: new Date(T0).toISOString(),
    rated: new Map([
      ['alice', { rating: 1500, provisional: true }],
      ['bob', { rating: 1500, provisional: true }],
    ]),
  });
  return {
    ...game,
    version: 3,
    status: 'finished',
    toMove: null,
    legalMoves: [],
    outcome: { winner: 1, reason: 'resignation' },
  };
}

const withRecord = (game: StoredGame, rematch: RematchRecord): StoredGame => ({
  ...game,
  rematch,
  version: game.version + 1,
});

function effects(before: StoredGame, after: StoredGame) {
  return effectsOf(before, after, {
    game: toGameHeadView(engine, after, DEFAULT_ABANDON_CLAIM_MS),
    move: null,
  });
}

describe('a finished game’s rematch record', () => {
  it('an offer: rematch.offered to the opponent, the offerer its version as game.updated; no ratings, TV or deadline', () => {
    const over = finishedGame();
    const offered = withRecord(over, { offeredBy: 0, declinedBy: null, game: null });
    const e = effects(over, offered);
    expect(e.notices.map((n) => [n.type, n.to, n.data.by])).toEqual([
      ['rematch.offered', ['bob'], 0],
      ['game.updated', ['alice'], undefined],
    ]);
    expect(e.accounts.map((a) => [a.account, a.status, a.ongoing, a.rating])).toEqual([
      ['alice', 'finished', false, undefined],
      ['bob', 'finished', false, undefined],
    ]);
    expect([e.featured, e.wake, e.clock.deadline]).toEqual([null, null, null]);
  });

  it('a decline: rematch.declined to the offerer, the decliner its version as game.updated', () => {
    const offered = withRecord(finishedGame(), { offeredBy: 1, declinedBy: null, game: null });
    const declined = withRecord(offered, { offeredBy: null, declinedBy: 0, game: null });
    expect(effects(offered, declined).notices.map((n) => [n.type, n.to, n.data.by])).toEqual([
      ['rematch.declined', ['bob'], 0],
      ['game.updated', ['alice'], undefined],
    ]);
  });

  it('the link to the new game: a game.updated to both (the new game’s game.started says the rest)', () => {
    const offered = withRecord(finishedGame(), { offeredBy: 1, declinedBy: null, game: null });
    const linked = withRecord(offered, { offeredBy: null, declinedBy: null, game: 'AAAAAAAAAAAA' });
    expect(effects(offered, linked).notices.map((n) => [n.type, n.to])).toEqual([
      ['game.updated', ['alice', 'bob']],
    ]);
  });

  it('a seat held by a seat token hears nothing (it has no feed)', () => {
    const over = finishedGame([null, null]);
    const offered = withRecord(over, { offeredBy: 0, declinedBy: null, game: null });
    const head = toGameHeadView(engine, offered, DEFAULT_ABANDON_CLAIM_MS);
    expect(rematchNotices(over, offered, head, offered.updatedAt)).toEqual([]);
  });
});
