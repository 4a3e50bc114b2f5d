// Periodic beats for many long-lived connections from one timer: the keep-alives of the REST streams
// (SSE comments, NDJSON blank lines) and the pings of graphql-ws sockets. At tens of thousands of
// idle connections on a node, a timer each (or two: a ping and its pong wait) is memory and timer
// work for nothing; here each connection is one entry in one of the slots of a wheel that turns one
// slot a step.

/** The wheel's step: each connection's beat comes every period, give or take one step. */
const STEP_MS = 1000;

export class Heartbeats {
  private readonly slots: Array<Set<() => void>>;
  private current = 0;
  private count = 0;
  private timer: NodeJS.Timeout | undefined;

  /** Beats every `periodMs` (a whole number of seconds, at least one). */
  constructor(periodMs: number) {
    this.slots = Array.from({ length: Math.max(1, Math.round(periodMs / STEP_MS)) }, () => new Set());
  }

  /**
   * Calls `beat` (a function of its own: one per connection) every period from now until the
   * returned function is called (idempotent). The timer runs only while beats are registered, and
   * never holds the process open by itself.
   */
  add(beat: () => void): () => void {
    // The slot that just fired comes again one whole period from now.
    const slot = this.slots[this.current] as Set<() => void>;
    slot.add(beat);
    this.count++;
    this.timer ??= setInterval(() => this.tick(), STEP_MS).unref();
    return () => {
      if (!slot.delete(beat)) return;
      if (--this.count === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private tick(): void {
    this.current = (this.current + 1) % this.slots.length;
    // A beat may end connections (its own, others'), and so remove beats, and a connection may join
    // meanwhile (into this slot): the beats of the slot as it was, each unless removed.
    const slot = this.slots[this.current] as Set<() => void>;
    for (const beat of [...slot]) if (slot.has(beat)) beat();
  }
}
