// Where the dashboard is mounted and what it routes on, read once from the page's own address, plus its timings.

/** sessionStorage key of the signed-in project id and API key. */
export const STORE_KEY = 'rts.dashboard.credentials';
/** How often a run or batch page asks again while it is still moving. */
export const POLL_MS = 2000;
/** Runs shown per step on a batch page. */
export const BATCH_PAGE = 100;
/** Items asked for per page of the scenario and batch lists (the API's maximum). */
export const LIST_PAGE = 100;
/** Entries per page of a webhook's delivery log ("Load more" adds the next). */
export const DELIVERY_PAGE = 25;
/**
 * How long a webhook page waits for the tries of a resend, recover or test to show in the log: a delivery's tries are
 * logged when its last one ends, up to 4 tries of 5 s plus 3.5 s of back-off later, so 30 s, renewed while the log
 * keeps changing (a recover's deliveries land one after the other), 2 minutes at most.
 */
export const ACTION_POLL_MS = 30_000;
export const ACTION_POLL_MAX_MS = 120_000;
/** Requests in flight at most when a page fetches many runs. */
export const FETCH_CONCURRENCY = 4;

// The API lives where the dashboard is mounted: origin + the path prefix before /dashboard (an API Gateway stage).
const mount = /^(.*?)\/dashboard(?:\/|$)/.exec(location.pathname);
const PREFIX = mount ? mount[1] : '';

/** Base URL of the API, e.g. `https://host/prod`. */
export const API_BASE = location.origin + PREFIX;
/** Path of the dashboard's home page, e.g. `/prod/dashboard`. */
export const DASH = `${PREFIX}/dashboard`;
/** The path below the dashboard ('' for home, `/runs/<id>`...), or null when the page is not under /dashboard. */
export const ROUTE: string | null = mount ? location.pathname.slice(PREFIX.length + '/dashboard'.length).replace(/\/+$/, '') : null;
