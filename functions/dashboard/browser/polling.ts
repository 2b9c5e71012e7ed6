// The current view's refresh loop: at most one, restarted by each new view, cancelled by stopPolling.
import { POLL_MS } from './config';

let pollTimer: ReturnType<typeof setTimeout> | null = null;
let generation = 0;

export function stopPolling(): void {
  if (pollTimer) clearTimeout(pollTimer);
  pollTimer = null;
}

/**
 * Runs `load` now and again every POLL_MS while it answers true; a newer view cancels older loops. An error ends the
 * loop and goes to `onError`, unless a newer view has started meanwhile.
 */
export function poll(load: () => Promise<boolean>, onError: (err: unknown) => void): Promise<void> {
  stopPolling();
  const mine = ++generation;
  async function tick(): Promise<void> {
    let again = false;
    try {
      again = await load();
    } catch (e) {
      if (mine === generation) onError(e);
      return;
    }
    if (again && mine === generation) pollTimer = setTimeout(tick, POLL_MS);
  }
  return tick();
}
