// The signed-in project id and API key: kept in this tab's sessionStorage only (or memory when storage is disabled).
import { STORE_KEY } from './config';

export interface Credentials {
  project: string;
  key: string;
}

let memoryCreds: Credentials | null = null;

function loadCreds(): Credentials | null {
  try {
    const raw = sessionStorage.getItem(STORE_KEY);
    const c: unknown = raw ? JSON.parse(raw) : null;
    if (typeof c !== 'object' || c === null) return null;
    const { project, key } = c as Partial<Record<keyof Credentials, unknown>>;
    return typeof project === 'string' && typeof key === 'string' && project && key ? { project, key } : null;
  } catch {
    return null;
  }
}

/** The current credentials, or null when signed out. */
export function creds(): Credentials | null {
  return loadCreds() || memoryCreds;
}

export function saveCreds(project: string, key: string): void {
  try {
    sessionStorage.setItem(STORE_KEY, JSON.stringify({ project, key }));
  } catch {
    // Storage disabled: the credentials last for this page load only.
  }
  memoryCreds = { project, key };
}

/** Signs out; answers the project id that was signed in ('' when none), to prefill the form. */
export function forgetKey(): string {
  const c = creds();
  try {
    sessionStorage.removeItem(STORE_KEY);
  } catch {
    // Nothing stored.
  }
  memoryCreds = null;
  return c ? c.project : '';
}

/** What the page's address carried after `#`: the project id to pre-fill, and whether it also carried a key. */
let linked: { project: string; keyRefused: boolean } = { project: '', keyRefused: false };

/**
 * Reads `#project=<id>` (a link may carry the project id, which is no secret, to pre-fill the sign-in form) and removes
 * the fragment from the address bar and this history entry at once. A `key=` there (links of earlier versions) is
 * never used: a key that reached an address is already in the browser's history and its sync, so the page asks for it
 * in the form instead and says why.
 */
export function takeFragment(): void {
  if (!location.hash || location.hash.length < 2) return;
  const params = new URLSearchParams(location.hash.slice(1));
  const project = params.get('project');
  const key = params.get('key');
  if (project === null && key === null) return;
  history.replaceState(history.state, '', location.pathname + location.search);
  // Signed in already: the page goes on with the credentials it holds, and has nothing to ask.
  linked = { project: (project ?? '').trim(), keyRefused: key !== null && !creds() };
}

/** The project id a link carried ('' when none), to pre-fill the sign-in form. */
export function linkedProject(): string {
  return linked.project;
}

/** Whether the page was opened with an API key in its address (which it did not use); true once, then false. */
export function takeRefusedLinkKey(): boolean {
  const refused = linked.keyRefused;
  linked = { ...linked, keyRefused: false };
  return refused;
}
