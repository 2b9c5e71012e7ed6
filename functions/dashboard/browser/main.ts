// Entry of the dashboard's browser script (bundled into the page by ../build-script.ts): the fragment read and cleared, then the view.
//
// Rules the script keeps: data reaches the DOM only through text nodes, textContent and attribute values (never
// innerHTML), links are built from the dashboard's own paths (or http(s) URLs checked first), credentials live in
// sessionStorage only (entered in the sign-in form, never taken from a URL) and travel as request headers to the same origin.
import { takeFragment } from './credentials';
import { fail } from './failure';
import { setRouter } from './navigation';
import { route } from './router';

setRouter(route);
takeFragment();
try {
  route();
} catch (e) {
  fail(e);
}
