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

/**
 * `#project=<id>&key=<key>`: fragments never reach a server; moves them into sessionStorage and out of the
 * address bar and history.
 */
export function takeFragment(): void {
  if (!location.hash || location.hash.length < 2) return;
  const params = new URLSearchParams(location.hash.slice(1));
  const project = params.get('project');
  const key = params.get('key');
  if (project === null && key === null) return;
  if (project && key) saveCreds(project.trim(), key.trim());
  history.replaceState(history.state, '', location.pathname + location.search);
}
