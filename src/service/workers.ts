// Background work as a list: each worker starts and stops; a list starts in order and stops in
// reverse, so a worker may rely on those before it for as long as it runs.

export interface Worker {
  readonly name: string;
  start(): void | Promise<void>;
  /** Resolves once the worker's work under way is done (or abandoned). */
  stop(): Promise<void>;
}

export interface Loop {
  /** No run starts after this; resolves when the run under way (if any) has settled. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs`, never two at once (a tick that finds a run under way is skipped);
 * a run's failure goes to `onError`. The timer does not keep the process alive.
 */
export function every(
  intervalMs: number,
  run: () => Promise<unknown>,
  onError: (error: unknown) => void,
): Loop {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= (async () => {
      try {
        await run();
      } catch (error) {
        onError(error);
      } finally {
        running = undefined;
      }
    })();
  }, intervalMs).unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/** A worker that runs `run` every `intervalMs` (see `every`) while started. */
export function periodic(
  name: string,
  intervalMs: number,
  run: () => Promise<unknown>,
  onError: (error: unknown) => void,
): Worker {
  let loop: Loop | undefined;
  return {
    name,
    start: () => {
      loop ??= every(intervalMs, run, onError);
    },
    stop: async () => {
      const stopping = loop?.stop();
      loop = undefined;
      await stopping;
    },
  };
}

/**
 * Starts `workers` in order; resolves with the function that stops the started ones in reverse
 * order, each awaited before the next, a failing stop reported to `onError` and the rest still
 * stopped (it never rejects). A start that fails stops those already started and rejects.
 */
export async function runWorkers(
  workers: readonly Worker[],
  onError: (error: unknown, worker: string) => void,
): Promise<() => Promise<void>> {
  const started: Worker[] = [];
  const stop = async () => {
    for (const worker of started.splice(0).reverse()) {
      try {
        await worker.stop();
      } catch (error) {
        onError(error, worker.name);
      }
    }
  };
  for (const worker of workers) {
    try {
      await worker.start();
    } catch (error) {
      // Stopped as well: a start may have begun work before it failed.
      started.push(worker);
      await stop();
      throw error;
    }
    started.push(worker);
  }
  return stop;
}
