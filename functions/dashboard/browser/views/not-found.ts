// The page for any address below the dashboard that is not one of its pages.
import { DASH } from '../config';
import { h, setMain } from '../dom';
import { stopPolling } from '../polling';
import { crumbs, link } from '../widgets';

export function notFoundView(): void {
  stopPolling();
  document.title = 'Not found - rts dashboard';
  setMain(
    crumbs([link('', 'Dashboard')]),
    h('h1', null, 'Not found'),
    h(
      'p',
      null,
      'There is no dashboard page at this address. Dashboard pages are ',
      h('code', null, DASH),
      ', ',
      h('code', null, `${DASH}/batches`),
      ', ',
      h('code', null, `${DASH}/webhooks`),
      ', ',
      h('code', null, `${DASH}/runs/<run_id>`),
      ', ',
      h('code', null, `${DASH}/batches/<batch_id>`),
      ', ',
      h('code', null, `${DASH}/campaigns/<campaign_id>`),
      ' and ',
      h('code', null, `${DASH}/webhooks/<webhook_id>`),
      '.',
    ),
    h('p', null, link('', 'Back to the dashboard')),
  );
}
