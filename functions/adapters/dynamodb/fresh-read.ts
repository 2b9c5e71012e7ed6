// Shared fresh reads: callers of the same key at the same time share one store read, and every caller still gets a
// read that started after it called. A read already under way may have started before a caller's call (before a
// write that caller must see), so it is never handed to a later caller: those wait for the next read, which starts
// when the one under way ends, and all of them share it. An idle key reads at once. Nothing is kept once a read ends.
//
// In Lambda a container handles one event at a time, so each call reads on its own; locally, where the handlers share
// one process, the fan-out's many events of one project share their reads of its webhooks.

interface Waiting<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

/** A key with a read under way. */
interface KeyState<T> {
  /** The callers that came while it ran: they share the next read. */
  next: Waiting<T> | null;
}

/**
 * `share: false` makes every call read on its own, as Lambda containers do (one invocation each): the cost bench
 * (test/bench/cost.ts) turns it off to count the reads a deployment makes.
 */
export const freshReadOptions = { share: true };

export class FreshReads<T> {
  private readonly keys = new Map<string, KeyState<T>>();

  constructor(private readonly read: (key: string) => Promise<T>) {}

  /** The value of `key` as a read that started after this call found it. */
  get(key: string): Promise<T> {
    if (!freshReadOptions.share) return this.read(key);
    const state = this.keys.get(key);
    if (!state) {
      const fresh: KeyState<T> = { next: null };
      this.keys.set(key, fresh);
      return this.start(key, fresh);
    }
    if (!state.next) {
      let resolve!: (value: T) => void;
      let reject!: (reason: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      state.next = { promise, resolve, reject };
    }
    return state.next.promise;
  }

  private start(key: string, state: KeyState<T>): Promise<T> {
    const reading = this.read(key);
    const done = () => {
      const waiting = state.next;
      if (!waiting) {
        this.keys.delete(key);
        return;
      }
      state.next = null;
      this.start(key, state).then(waiting.resolve, waiting.reject);
    };
    reading.then(done, done);
    return reading;
  }
}
