// Picks the view for the page's address: home, a run, a CI batch, the sign-in form, or "not found".
import { ROUTE, DASH } from './config';
import { creds } from './credentials';
import { renderWho } from './header';
import { batchView } from './views/batch';
import { homeView } from './views/home';
import { notFoundView } from './views/not-found';
import { runView } from './views/run';
import { signInView } from './views/sign-in';

/** Shows the view for the current address (the sign-in form first when signed out). */
export function route(): void {
  document.getElementById('brand')?.setAttribute('href', DASH);
  renderWho();
  if (ROUTE === null || (ROUTE !== '' && !/^\/(runs|batches)\/[^/]+$/.test(ROUTE))) {
    notFoundView();
    return;
  }
  if (!creds()) {
    signInView(null);
    return;
  }
  if (ROUTE === '') {
    void homeView();
    return;
  }
  let m: RegExpExecArray | null;
  if ((m = /^\/runs\/([^/]+)$/.exec(ROUTE))) void runView(decodeURIComponent(m[1]));
  else if ((m = /^\/batches\/([^/]+)$/.exec(ROUTE))) void batchView(decodeURIComponent(m[1]));
  else notFoundView();
}
