// The chat port's contract (run by store-contract.ts on memory, Redis and Redis Cluster): numbering,
// the capped list and its pages, expiry of the whole chat, mutes, and live signals to subscribers.
import type { ChatDraft, ChatSignal, Storage } from '../../src/store/store';

let n = 0;
const gameId = () => `chat${++n}x${Math.random().toString(36).slice(2, 8)}`;
const draft = (game: string, text: string, seat: number | null = 0): ChatDraft => ({
  game,
  seat,
  account: seat === null ? 'watcher' : null,
  name: seat === null ? 'watcher' : `seat${seat}`,
  text,
  at: '2026-01-02T03:04:05.000Z',
});
const LONG = { keep: 200, ttlMs: 60_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `predicate` holds for the signals received, or rejects after a while. */
async function until(signals: ChatSignal[], predicate: (s: ChatSignal[]) => boolean): Promise<void> {
  for (let i = 0; i < 200 && !predicate(signals); i++) await sleep(10);
  expect(predicate(signals)).toBe(true);
}

export function describeChatContract(storage: () => Storage): void {
  it('numbers each game’s messages from 1 and answers pages newest-last', async () => {
    const s = storage();
    const [g, other] = [gameId(), gameId()];
    expect(await s.chat.list(g, 10)).toEqual([]);
    const first = await s.chat.append(draft(g, 'hello'), LONG);
    expect(first).toEqual({ id: '1', ...draft(g, 'hello') });
    for (const text of ['two', 'three', 'four']) await s.chat.append(draft(g, text, 1), LONG);
    expect((await s.chat.append(draft(other, 'elsewhere'), LONG)).id).toBe('1');
    const texts = (page: { text: string }[]) => page.map((m) => m.text);
    expect(texts(await s.chat.list(g, 10))).toEqual(['hello', 'two', 'three', 'four']);
    // Without `after`: the newest `limit`, oldest first; with it: those after the id.
    expect(texts(await s.chat.list(g, 2))).toEqual(['three', 'four']);
    expect(texts(await s.chat.list(g, 2, '1'))).toEqual(['two', 'three']);
    expect(texts(await s.chat.list(g, 10, '4'))).toEqual([]);
    expect((await s.chat.list(g, 10)).map((m) => m.id)).toEqual(['1', '2', '3', '4']);
    expect(await s.chat.list(other, 10)).toEqual([{ id: '1', ...draft(other, 'elsewhere') }]);
    // A spectator's message keeps its null seat.
    expect((await s.chat.append(draft(g, 'watching', null), LONG)).seat).toBeNull();
  });

  it('keeps the newest `keep` messages and goes on numbering', async () => {
    const s = storage();
    const g = gameId();
    for (let i = 1; i <= 5; i++) await s.chat.append(draft(g, `m${i}`), { keep: 3, ttlMs: 60_000 });
    const kept = await s.chat.list(g, 10);
    expect(kept.map((m) => [m.id, m.text])).toEqual([
      ['3', 'm3'],
      ['4', 'm4'],
      ['5', 'm5'],
    ]);
    expect((await s.chat.list(g, 10, '1')).map((m) => m.id)).toEqual(['3', '4', '5']);
  });

  it('drops the whole chat, mutes included, once the retention after its last write has passed', async () => {
    const s = storage();
    const g = gameId();
    // Margins of 500 ms either side of each expiry, so a loaded machine (a Cluster at load 16) cannot
    // make the check race the TTL.
    await s.chat.append(draft(g, 'soon gone'), { keep: 10, ttlMs: 1500 });
    expect(await s.chat.setMute(g, 1, true, 1500)).toBe(true);
    await sleep(600);
    // A write gives the whole chat the retention again: 1600 ms after the first write, it is all there.
    await s.chat.append(draft(g, 'later'), { keep: 10, ttlMs: 1500 });
    await sleep(1000);
    expect((await s.chat.list(g, 10)).map((m) => m.text)).toEqual(['soon gone', 'later']);
    expect(await s.chat.mutedSeats(g)).toEqual([1]);
    await sleep(1000);
    expect(await s.chat.list(g, 10)).toEqual([]);
    expect(await s.chat.mutedSeats(g)).toEqual([]);
  });

  it('forgets one account’s messages of a game, keeping the others, their ids and the retention', async () => {
    const s = storage();
    const [g, other] = [gameId(), gameId()];
    const by = (account: string, text: string): ChatDraft => ({
      ...draft(g, text, 1),
      account,
      name: account,
    });
    await s.chat.append(by('erased', 'one'), { keep: 10, ttlMs: 400 });
    await s.chat.append(by('stays', 'two'), { keep: 10, ttlMs: 400 });
    await s.chat.append(by('erased', 'three'), { keep: 10, ttlMs: 400 });
    await s.chat.append({ ...draft(other, 'elsewhere'), account: 'erased' }, LONG);
    expect(await s.chat.forget(g, 'erased')).toBe(2);
    expect(await s.chat.forget(g, 'erased')).toBe(0);
    expect(await s.chat.forget(gameId(), 'erased')).toBe(0);
    expect((await s.chat.list(g, 10)).map((m) => [m.id, m.text])).toEqual([['2', 'two']]);
    expect((await s.chat.append(by('stays', 'four'), { keep: 10, ttlMs: 400 })).id).toBe('4');
    expect((await s.chat.list(other, 10)).map((m) => m.text)).toEqual(['elsewhere']);
    await sleep(600);
    expect(await s.chat.list(g, 10)).toEqual([]);
  });

  it('records mutes per seat, says whether anything changed, and signals messages and mutes live', async () => {
    const s = storage();
    const g = gameId();
    const signals: ChatSignal[] = [];
    const elsewhere: ChatSignal[] = [];
    const stop = await s.chat.subscribe(g, (signal) => signals.push(signal));
    const stopOther = await s.chat.subscribe(gameId(), (signal) => elsewhere.push(signal));
    try {
      expect(await s.chat.mutedSeats(g)).toEqual([]);
      expect(await s.chat.setMute(g, 1, true, 60_000)).toBe(true);
      expect(await s.chat.setMute(g, 1, true, 60_000)).toBe(false);
      expect(await s.chat.setMute(g, 0, true, 60_000)).toBe(true);
      expect(await s.chat.mutedSeats(g)).toEqual([0, 1]);
      expect(await s.chat.setMute(g, 0, false, 60_000)).toBe(true);
      expect(await s.chat.setMute(g, 0, false, 60_000)).toBe(false);
      expect(await s.chat.mutedSeats(g)).toEqual([1]);
      const message = await s.chat.append(draft(g, 'live'), LONG);
      await until(signals, (got) => got.length >= 4);
      expect(signals).toEqual([
        { type: 'mute', seat: 1, muted: true },
        { type: 'mute', seat: 0, muted: true },
        { type: 'mute', seat: 0, muted: false },
        { type: 'message', message },
      ]);
      expect(elsewhere).toEqual([]);
    } finally {
      await stop();
      await stopOther();
    }
    // Unsubscribed: nothing more arrives.
    await s.chat.append(draft(g, 'unheard'), LONG);
    await sleep(50);
    expect(signals).toHaveLength(4);
  });
}
