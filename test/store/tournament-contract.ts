// The tournaments port's contract (run by store-contract.ts on memory, Redis and Redis Cluster).
import type { Notice, Storage, StoredTournament } from '../../src/store/store';

let n = 0;

/** A minimal open tournament with a fresh id (12 characters, like the service's). */
export function sampleTournament(overrides: Partial<StoredTournament> = {}): StoredTournament {
  n++;
  const at = new Date().toISOString();
  return {
    id: `tn${String(n).padStart(4, '0')}${Math.random().toString(36).slice(2, 8).padEnd(6, '0')}`,
    name: 'Spring',
    kind: 'kalah',
    options: { seeds: 3 },
    timeControl: { type: 'realtime', initialSeconds: 60, incrementSeconds: 0 },
    format: 'swiss',
    rounds: 3,
    microMatch: false,
    byePoints: 1,
    rated: false,
    minPlayers: 2,
    maxPlayers: 8,
    startsAt: null,
    createdBy: 'creator',
    status: 'open',
    round: 0,
    players: [],
    pairings: [],
    results: {},
    version: 0,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function describeTournamentContract(store: () => Storage): void {
  const tournaments = () => store().tournaments;

  it('stores a tournament and reads it back unchanged; an id is created once', async () => {
    const t = sampleTournament();
    await tournaments().create(t);
    await expect(tournaments().get(t.id)).resolves.toEqual(t);
    await expect(tournaments().create(t)).rejects.toThrow();
    await expect(tournaments().get('tnnone000000')).resolves.toBeUndefined();
  });

  it('updates with compare-and-set on the version', async () => {
    const t = sampleTournament();
    await tournaments().create(t);
    const next = {
      ...t,
      version: 1,
      players: [{ account: 'a', name: 'a', rating: 1500, joinedAt: t.createdAt }],
    };
    await expect(tournaments().update(next, 0)).resolves.toEqual({ status: 'updated' });
    // A second writer from the same version loses, and nothing changes.
    await expect(tournaments().update({ ...t, version: 1, name: 'other' }, 0)).resolves.toEqual({
      status: 'conflict',
      currentVersion: 1,
    });
    await expect(tournaments().get(t.id)).resolves.toEqual(next);
    await expect(tournaments().update(sampleTournament({ version: 1 }), 0)).resolves.toEqual({
      status: 'missing',
    });
  });

  it('lists newest first by status, in pages, and moves a tournament between statuses', async () => {
    const made: StoredTournament[] = [];
    for (let i = 0; i < 3; i++) {
      const t = sampleTournament({ name: `list${i}` });
      await tournaments().create(t);
      made.push(t);
    }
    const [t0, t1, t2] = made as [StoredTournament, StoredTournament, StoredTournament];
    const first = await tournaments().list('open', 2);
    expect(first.items.map((t) => t.id)).toEqual([t2.id, t1.id]);
    expect(first.next).not.toBeNull();
    const second = await tournaments().list('open', 2, first.next ?? undefined);
    expect(second.items[0]?.id).toBe(t0.id);

    await tournaments().update({ ...t1, status: 'ongoing', version: 1 }, 0);
    const open = (await tournaments().list('open', 100)).items.map((t) => t.id);
    const ongoing = (await tournaments().list('ongoing', 100)).items.map((t) => t.id);
    expect(open).toContain(t2.id);
    expect(open).not.toContain(t1.id);
    expect(ongoing).toContain(t1.id);
    const all = (await tournaments().list(undefined, 100)).items.map((t) => t.id);
    expect(all.indexOf(t2.id)).toBeLessThan(all.indexOf(t1.id));
    expect(all.indexOf(t1.id)).toBeLessThan(all.indexOf(t0.id));
  });

  it('lists each pool’s tournaments apart (no pool: the open pool), through status changes', async () => {
    const pool = `app_${Math.random().toString(36).slice(2, 10)}`;
    const open = sampleTournament();
    const island = sampleTournament({ pool });
    await tournaments().create(open);
    await tournaments().create(island);
    const ids = async (status: StoredTournament['status'] | undefined, p?: string) =>
      (await tournaments().list(status, 100, undefined, p)).items.map((t) => t.id);
    expect(await ids('open')).toContain(open.id);
    expect(await ids('open')).not.toContain(island.id);
    expect(await ids(undefined, 'open')).not.toContain(island.id);
    expect(await ids('open', pool)).toEqual([island.id]);
    await tournaments().update({ ...island, status: 'ongoing', version: 1 }, 0);
    expect(await ids('open', pool)).toEqual([]);
    expect(await ids('ongoing', pool)).toEqual([island.id]);
    expect(await ids(undefined, pool)).toEqual([island.id]);
    expect(await ids('ongoing')).not.toContain(island.id);
  });

  it("lists an account's tournaments, newest first; membership is idempotent", async () => {
    const account = `member${Math.random().toString(36).slice(2, 8)}`;
    const a = sampleTournament();
    const b = sampleTournament();
    await tournaments().create(a);
    await tournaments().create(b);
    await tournaments().addMember(account, a.id);
    await tournaments().addMember(account, b.id);
    await tournaments().addMember(account, a.id);
    const page = await tournaments().listOf(account, 10);
    expect(page.items.map((t) => t.id)).toEqual([b.id, a.id]);
    expect(page.next).toBeNull();
    await expect(tournaments().listOf(`${account}x`, 10)).resolves.toEqual({ items: [], next: null });
  });

  it('the due index answers what is due (ongoing, full, at the start time or expiry), never the rest', async () => {
    const now = Date.now();
    const later = new Date(now + 3_600_000).toISOString();
    const creator = `tc${Math.random().toString(36).slice(2, 10)}`;
    const idle = sampleTournament({ startsAt: later, createdBy: creator });
    const expiring = sampleTournament({ expiresAt: later, createdBy: creator });
    const ongoing = sampleTournament({ createdBy: creator });
    const done = sampleTournament({ createdBy: creator });
    for (const t of [idle, expiring, ongoing, done]) await tournaments().create(t);
    await expect(tournaments().openBy(creator)).resolves.toBe(4);
    await tournaments().update({ ...ongoing, status: 'ongoing', version: 1 }, 0);
    await tournaments().update({ ...done, status: 'finished', version: 1 }, 0);
    await expect(tournaments().openBy(creator)).resolves.toBe(3);
    const ours = (ids: string[]) =>
      ids.filter((id) => [idle, expiring, ongoing, done].some((t) => t.id === id));
    // Now: only the ongoing one; it goes back at now + retry, so it is not due again before then.
    expect(ours(await tournaments().due(now, 10_000, 1000))).toEqual([ongoing.id]);
    expect(ours(await tournaments().due(now + 500, 10_000, 1000))).toEqual([]);
    expect(ours(await tournaments().due(now + 1000, 10_000, 1000))).toEqual([ongoing.id]);
    // At the start time and the expiry, the open ones too (most overdue first).
    const at = Date.parse(later);
    expect(ours(await tournaments().due(at, 10_000, 0)).sort()).toEqual(
      [idle.id, expiring.id, ongoing.id].sort(),
    );
    // A full open tournament is due at once.
    const player = (account: string) => ({ account, name: account, rating: 1500, joinedAt: later });
    const full = sampleTournament({ maxPlayers: 2, startsAt: later, createdBy: creator });
    await tournaments().create(full);
    expect(await tournaments().due(now, 10_000, 0)).not.toContain(full.id);
    await tournaments().update({ ...full, version: 1, players: [player('a'), player('b')] }, 0);
    expect(await tournaments().due(now, 10_000, 0)).toContain(full.id);
    await tournaments().update({ ...full, version: 2, status: 'cancelled' }, 1);
    expect(await tournaments().due(at, 10_000, 0)).not.toContain(full.id);
    await expect(tournaments().openBy(creator)).resolves.toBe(3);
  });

  it("records an update's notices for their addressees, once each and in order; a losing update none", async () => {
    const id = () => `tp${Math.random().toString(36).slice(2, 10)}`;
    const [a, b, c] = [id(), id(), id()];
    const t = sampleTournament();
    await tournaments().create(t);
    const notice = (to: string[], round: number): Notice => ({
      to,
      type: 'tournament.round_started',
      at: new Date().toISOString(),
      data: { tournament: { id: t.id, round } },
    });
    // The players change over time (c joins later): each still gets its notices once, in order.
    let current = t;
    const steps: Array<[string[], number]> = [
      [[a, b], 1],
      [[a, b, c], 2],
      [[c], 3],
      [[a, b, c], 4],
    ];
    for (const [to, round] of steps) {
      const next = { ...current, version: current.version + 1, round };
      await expect(tournaments().update(next, current.version, [notice(to, round)])).resolves.toEqual({
        status: 'updated',
      });
      // A writer that lost the compare-and-set tells nobody.
      await expect(
        tournaments().update({ ...next, name: 'loser' }, current.version, [notice([a, b, c], 99)]),
      ).resolves.toMatchObject({ status: 'conflict' });
      current = next;
    }
    const rounds = async (account: string) =>
      (await store().feed.read(account, 0, 100)).events
        .filter((e) => e.type === 'tournament.round_started')
        .map((e) => (e.data.tournament as { round: number }).round);
    await expect(rounds(a)).resolves.toEqual([1, 2, 4]);
    await expect(rounds(b)).resolves.toEqual([1, 2, 4]);
    await expect(rounds(c)).resolves.toEqual([2, 3, 4]);
  });
}
