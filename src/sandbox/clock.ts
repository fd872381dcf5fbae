/**
 * The sandbox's sense of time: real time plus an offset that `POST /_sandbox/clock` advances, and a
 * scheduler whose tasks run when either real time or the offset reaches them. Token expiry,
 * subscription activity and the simulated professionals all read this clock, so a test can jump
 * an hour ahead without waiting an hour.
 */
interface ScheduledTask {
  id: number;
  dueAt: number;
  tag: string;
  run: () => void;
}

export class SandboxClock {
  #offsetMs = 0;
  #tasks: ScheduledTask[] = [];
  #nextId = 1;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Milliseconds since the epoch, as the sandbox sees it. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Moves time forward and runs every task that has come due, in order. */
  advance(ms: number): void {
    this.#offsetMs += ms;
    this.#runDue();
  }

  /** Runs `run` after `delayMs` of sandbox time. Returns a function that cancels it. */
  schedule(delayMs: number, run: () => void, tag = ''): () => void {
    const task: ScheduledTask = { id: this.#nextId++, dueAt: this.now() + Math.max(0, delayMs), tag, run };
    this.#tasks.push(task);
    this.#arm();
    return () => this.#remove((t) => t.id === task.id);
  }

  /** Cancels every pending task with this tag (or every task when no tag is given). */
  cancel(tag?: string): void {
    this.#remove((t) => tag === undefined || t.tag === tag);
  }

  get pendingTasks(): number {
    return this.#tasks.length;
  }

  /** Back to real time with nothing scheduled. */
  reset(): void {
    this.cancel();
    this.#offsetMs = 0;
  }

  #remove(match: (task: ScheduledTask) => boolean): void {
    this.#tasks = this.#tasks.filter((t) => !match(t));
    this.#arm();
  }

  #runDue(): void {
    for (;;) {
      const now = this.now();
      const due = this.#tasks.filter((t) => t.dueAt <= now).sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
      const next = due[0];
      if (!next) break;
      this.#tasks = this.#tasks.filter((t) => t.id !== next.id);
      try {
        next.run();
      } catch (error) {
        console.error('sandbox: a scheduled task failed', error);
      }
    }
    this.#arm();
  }

  #arm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#tasks.length === 0) return;
    const earliest = Math.min(...this.#tasks.map((t) => t.dueAt));
    // setTimeout takes at most 2^31-1 ms; a later task is re-armed when this one fires.
    const wait = Math.min(Math.max(0, earliest - this.now()), 2 ** 31 - 1);
    this.#timer = setTimeout(() => this.#runDue(), wait);
    // In Node, pending sandbox work must not keep a finished process alive.
    (this.#timer as { unref?: () => void }).unref?.();
  }
}
