// Lets deep parts of the page (sign-in, sign-out) route again without importing the router, which imports them.

let router: () => void = () => undefined;

/** Called once at start-up with the router. */
export function setRouter(route: () => void): void {
  router = route;
}

/** Shows the view for the current address again (after signing in or out). */
export function reroute(): void {
  router();
}
