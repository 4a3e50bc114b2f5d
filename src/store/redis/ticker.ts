// A background loop of a node (the outbox relay's sweep, the app-feed forwarder): one run every
// `intervalMs` after the previous one ended (never two at once), its failures reported, not thrown.

export class Ticker {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** True between start() and stop(). */
  get started(): boolean {
    return this.timer !== undefined;
  }

  /** Begins the loop; false when it runs already. */
  start(intervalMs: number): boolean {
    if (this.timer) return false;
    const tick = () => {
      this.run()
        .catch(this.onError)
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, intervalMs).unref();
        });
    };
    this.timer = setTimeout(tick, intervalMs).unref();
    return true;
  }

  /** Ends the loop (a run under way finishes; the caller awaits it if it must). */
  stop(): void {
    const timer = this.timer;
    this.timer = undefined;
    if (timer) clearTimeout(timer);
  }
}
