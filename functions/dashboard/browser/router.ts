// Picks the view for the page's address: home, the batches list, a run, a CI batch, a campaign, the sign-in form, or "not found".
import { ROUTE, DASH } from './config';
import { creds } from './credentials';
import { renderNav, renderWho } from './header';
import { batchView } from './views/batch';
import { batchesView } from './views/batches';
import { campaignView } from './views/campaign';
import { homeView } from './views/home';
import { notFoundView } from './views/not-found';
import { runView } from './views/run';
import { signInView } from './views/sign-in';
import { webhookView } from './views/webhook';
import { webhooksView } from './views/webhooks';

/** The dashboard's pages below its root: a list, or a kind of item with its id. */
const PAGES: ReadonlyArray<readonly [RegExp, (id: string) => Promise<void>]> = [
  [/^\/batches$/, () => batchesView()],
  [/^\/runs\/([^/]+)$/, runView],
  [/^\/batches\/([^/]+)$/, batchView],
  [/^\/campaigns\/([^/]+)$/, campaignView],
  [/^\/webhooks$/, () => webhooksView()],
  [/^\/webhooks\/([^/]+)$/, webhookView],
];

/** Shows the view for the current address (the sign-in form first when signed out). */
export function route(): void {
  document.getElementById('brand')?.setAttribute('href', DASH);
  renderNav();
  renderWho();
  const page = ROUTE === '' ? null : PAGES.map(([re, view]) => [re.exec(ROUTE ?? ''), view] as const).find(([m]) => m);
  if (ROUTE === null || page === undefined) {
    notFoundView();
    return;
  }
  if (!creds()) {
    signInView(null);
    return;
  }
  if (page === null) {
    void homeView();
    return;
  }
  const [m, view] = page;
  let id = '';
  try {
    id = m && m[1] !== undefined ? decodeURIComponent(m[1]) : '';
  } catch {
    notFoundView();
    return;
  }
  void view(id);
}
