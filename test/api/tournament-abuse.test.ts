// Issue #28 item 9 on both stores, with the real clock and the director running as in production:
// hundreds of tournaments that never start do not keep a real one from playing its rounds (the
// director reads a due index, not a sample of every tournament), an account has a quota of open
// tournaments, and an open tournament that never fills is cancelled at its expiry.
import type { StoredTournament } from '../../src/store/store';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running, type StoreKind, rest } from '../support/app';

const TIME = { type: 'realtime', initialSeconds: 600, incrementSeconds: 0 };
const IDLE = 300;
const QUOTA = 3;
const EXPIRY_MS = 1500;
const harness = appHarness();
afterAll(() => harness.stopAll());

async function until<T>(what: string, read: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each<StoreKind>(['memory', 'redis'])('tournament abuse on %s', (store) => {
  let run: Running;
  let accounts: TestAccount[];
  beforeAll(async () => {
    run = await harness.start(store, {
      app: { tournamentSweepMs: 50, tournaments: { openPerAccount: QUOTA, openExpiryMs: EXPIRY_MS } },
    });
    accounts = [];
    for (let i = 0; i < 4; i++) accounts.push(await signUp(run.app, `ta${i}`, 'bot'));
  });
  const who = (i: number) => accounts[i] as TestAccount;
  const create = (i: number, body: object) =>
    rest(run, who(i), 'POST', '/tournaments', { name: 'T', kind: 'kalah', timeControl: TIME, ...body });

  it(`a real tournament plays its rounds to the end beside ${IDLE} that never start`, async () => {
    // The idle ones: as an attacker's many accounts leave them (open, waiting for a start a day away
    // or to fill), stored directly so that the quota does not stand in the way.
    const model = (await create(3, { format: 'swiss', startsAt: new Date(Date.now() + 86_400_000) })).body;
    const stored = (await run.storage.tournaments.get(model.id)) as StoredTournament;
    const day = new Date(Date.now() + 86_400_000).toISOString();
    for (let i = 0; i < IDLE; i++) {
      const id = `idle${String(i).padStart(4, '0')}${model.id.slice(0, 4)}`;
      await run.storage.tournaments.create({
        ...stored,
        id,
        ...(i % 2 === 0 ? { startsAt: day } : { startsAt: null, expiresAt: day }),
      });
    }
    // Not one of them is due now: the director does not read them.
    const due = await run.storage.tournaments.due(Date.now(), 10_000, 0);
    expect(due.filter((id) => id.startsWith('idle'))).toEqual([]);

    const started = Date.now();
    const t = (await create(0, { format: 'swiss', maxPlayers: 2, rounds: 3 })).body;
    expect((await rest(run, who(1), 'POST', `/tournaments/${t.id}/join`)).status).toBe(200);
    expect((await rest(run, who(0), 'POST', `/tournaments/${t.id}/join`)).status).toBe(200);
    const byId = new Map(accounts.map((a) => [a.id, a]));
    for (let round = 1; round <= 3; round++) {
      const now = await until(`round ${round}`, async () => {
        const view = (await rest(run, null, 'GET', `/tournaments/${t.id}`)).body;
        return view.round === round && view.status === 'ongoing' ? view : undefined;
      });
      const pairing = now.pairings.find((p: any) => p.round === round);
      const gameId = pairing.games[0] as string;
      await until(`game ${gameId}`, () => run.storage.games.get(gameId));
      expect((await rest(run, byId.get(pairing.first)!, 'POST', `/games/${gameId}/resign`)).status).toBe(200);
    }
    await until('the end', async () => {
      const view = (await rest(run, null, 'GET', `/tournaments/${t.id}`)).body;
      return view.status === 'finished' ? view : undefined;
    });
    // Three rounds at a 50 ms sweep: seconds at most (before the due index the memory store's
    // director never reached it, and Redis sampled it a fraction of the sweeps).
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it('refuses a tournament past the quota of open ones (409 TOO_MANY_TOURNAMENTS), stores nothing', async () => {
    const mine = async () => (await rest(run, who(2), 'GET', '/account/tournaments?limit=100')).body.items;
    for (let i = 0; i < QUOTA; i++) {
      expect((await create(2, { format: 'swiss', startsAt: new Date(Date.now() + 86_400_000) })).status).toBe(
        201,
      );
    }
    const before = (await mine()).length;
    const refused = await create(2, { format: 'swiss' });
    expect([refused.status, refused.body.code, refused.body.max]).toEqual([
      409,
      'TOO_MANY_TOURNAMENTS',
      QUOTA,
    ]);
    expect((await mine()).length).toBe(before);
  });

  it('cancels an open tournament that never fills at its expiry, tells its players, and frees the quota', async () => {
    const t = (await create(1, { format: 'swiss', maxPlayers: 8 })).body;
    expect((await rest(run, who(3), 'POST', `/tournaments/${t.id}/join`)).status).toBe(200);
    await until('the expiry', async () => {
      const view = (await rest(run, null, 'GET', `/tournaments/${t.id}`)).body;
      return view.status === 'cancelled' ? view : undefined;
    });
    const feed = await run.app.services.feed.read({ token: who(3).token }, 0, 100);
    const events = feed.events.filter((e: any) => e.data.tournament?.id === t.id).map((e: any) => e.type);
    expect(events).toEqual(['tournament.cancelled']);
    await expect(run.storage.tournaments.openBy(who(1).id)).resolves.toBe(0);
  });
});
