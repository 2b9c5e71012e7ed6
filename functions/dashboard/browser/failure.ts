// What a failed view shows: a 401 signs out and asks for credentials again, any other error is shown in place.
import { forgetKey } from './credentials';
import { setMain } from './dom';
import { stopPolling } from './polling';
import { signInView } from './views/sign-in';
import { crumbs, errorAlert, link, type Problem } from './widgets';

/** Shows `err` (an ApiError, or anything else a view threw) instead of the current view. */
export function fail(err: unknown): void {
  const problem = (typeof err === 'object' && err !== null ? err : {}) as Problem & { status?: number };
  if (problem.status === 401) {
    signInView(problem, forgetKey());
    return;
  }
  stopPolling();
  setMain(crumbs([link('', 'Dashboard')]), errorAlert(problem));
}
