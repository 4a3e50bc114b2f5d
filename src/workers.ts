// A node's background work, in one list: started in this order before the node serves, stopped in
// reverse after its surfaces closed (src/service/workers.ts runs the list).
import type { Logger } from 'pino';
import type { AppOptions } from './app';
import type { Services } from './service';
import { periodic, every, type Loop, type Worker } from './service/workers';

export type WorkerOptions = Pick<
  AppOptions,
  'sweepIntervalMs' | 'tournamentSweepMs' | 'webhooks' | 'bulks' | 'ai'
> & { readonly logger?: Logger | undefined };

/** The default of `sweepIntervalMs`. */
const SWEEP_MS = 5000;

/**
 * Every node runs every worker; leases and compare-and-set in the store make each piece of work
 * happen once. A worker whose interval is 0 is left out, except where its stop is needed anyway
 * (webhooks: `deliverWebhooks` runs deliveries; AI: the pool and the driver close at stop).
 */
export function backgroundWorkers(services: Services, options: WorkerOptions): Worker[] {
  const { logger } = options;
  const warn = (message: string) => (error: unknown) => logger?.warn({ err: error }, message);
  const sweepMs = options.sweepIntervalMs ?? SWEEP_MS;
  const tournamentMs = options.tournamentSweepMs ?? (sweepMs > 0 ? 2000 : 0);
  const webhookMs = options.webhooks?.intervalMs ?? 1000;
  // The AI accounts exist on every store; this node plays their turns unless told not to.
  const driver = options.ai?.driver === false ? undefined : services.turns;
  const pushMs = driver ? (options.ai?.sweepMs ?? options.sweepIntervalMs ?? SWEEP_MS) : 0;
  const workers: Worker[] = [];

  // Before any stream opens: every stream of a token ends when it is revoked on any node. Stopped
  // last, after the surfaces ended every stream.
  workers.push({
    name: 'token-revocations',
    start: () => services.tokenStreams.start(),
    stop: () => services.tokenStreams.stop(),
  });

  // The AI accounts, and this node's turn driver (the AI's and push bots' turns).
  let stopAi: (() => void) | undefined;
  workers.push({
    name: 'ai',
    start: async () => {
      stopAi = await services.ai.start(driver, warn('AI start-up failed; retrying'));
    },
    stop: async () => {
      stopAi?.();
      // Closing the pool ends the searches the driver waits for.
      const turns = services.turns.stop();
      await services.aiPool.close();
      await turns;
    },
  });

  // Bulk pairings: scheduled ones, and the steps of a node that died.
  if (options.bulks?.sweepMs !== 0) {
    workers.push({
      name: 'bulk-pairings',
      start: () => services.bulks.start(),
      stop: () => services.bulks.stop(),
    });
  }

  // Push-mode bots: every account with a move endpoint, and those registered on other nodes since.
  let pushRefresh: Loop | undefined;
  workers.push({
    name: 'push-bots',
    start: async () => {
      if (!driver) return;
      await services.push.drive();
      if (pushMs > 0) pushRefresh = every(pushMs, () => services.push.refresh(), warn('push refresh failed'));
    },
    stop: async () => {
      const refreshing = pushRefresh?.stop();
      services.push.stop();
      await refreshing;
    },
  });

  if (sweepMs > 0) {
    workers.push(
      periodic('challenge-expiry', sweepMs, () => services.challenges.expireDue(), warn('sweep failed')),
    );
    // Also wakes at each deadline it knows of.
    let stopClocks: (() => void) | undefined;
    workers.push({
      name: 'clocks',
      start: () => {
        stopClocks = services.clocks.run(sweepMs, warn('clock sweep failed'));
      },
      stop: async () => stopClocks?.(),
    });
  }

  // A lease per tournament makes each step once.
  if (tournamentMs > 0) {
    let stopDirector: (() => void) | undefined;
    workers.push({
      name: 'tournament-director',
      start: () => {
        stopDirector = services.tournaments.director.run(tournamentMs, warn('tournament sweep failed'));
      },
      stop: async () => stopDirector?.(),
    });
  }

  // Leases in the store keep each endpoint to one node at a time.
  const webhooks = services.webhooks.worker;
  let delivering: Loop | undefined;
  workers.push({
    name: 'webhooks',
    start: () => {
      if (webhookMs > 0)
        // Not awaited: a run lasts while deliveries are under way, and each tick while it runs wakes
        // it to claim what fell due since (slots freed, new events) instead of waiting for it to end.
        delivering = every(
          webhookMs,
          async () => void webhooks.deliverDue().catch(warn('webhook delivery failed')),
          warn('webhook delivery failed'),
        );
    },
    // Attempts under way are abandoned, not awaited (their endpoints are due again at once).
    stop: async () => {
      const stopping = delivering?.stop();
      await webhooks.stop();
      await stopping;
    },
  });

  return workers;
}
