// Target and judge URLs carry no secrets: campaigns are shown in full on every read, so credentials belong in the
// write-only `headers` / `api_key` fields (docs/security.md, "Secrets in URLs").

/** Query parameter names (lowercased, `-`/`_`/`.` removed) that name a credential. */
const SECRET_NAMES = new Set([
  'key',
  'apikey',
  'token',
  'accesstoken',
  'authtoken',
  'idtoken',
  'refreshtoken',
  'bearer',
  'auth',
  'authorization',
  'secret',
  'clientsecret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'sig',
  'signature',
  'credential',
  'credentials',
  'session',
  'sessionid',
  'xapikey',
  'xamzsecuritytoken',
  'xamzsignature',
  'xamzcredential',
]);

/** Name endings that name a credential whatever comes before them (`openai_api_key`, `hub.verify_token`). */
const SECRET_SUFFIXES = ['apikey', 'token', 'secret', 'password', 'signature', 'credential', 'accesskey', 'privatekey'];

/** Whether a query parameter's name looks like it carries a secret (case-insensitive). */
export function isSecretParamName(name: string): boolean {
  const n = name.toLowerCase().replace(/[-_.\s]/g, '');
  return SECRET_NAMES.has(n) || SECRET_SUFFIXES.some((s) => n.endsWith(s));
}

/** Why a target or judge URL is unacceptable, or null. Only the URL's shape is judged here (zod checks http/https). */
export function targetUrlProblem(value: string, field: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null; // not a URL at all: the format check reports it
  }
  if (url.username !== '' || url.password !== '') {
    return `${field} must not contain credentials (user:password@): they would be shown on every read and are not sent; put them in the write-only headers (e.g. Authorization) instead`;
  }
  const secret = [...url.searchParams.keys()].find((name) => isSecretParamName(name));
  if (secret !== undefined) {
    return `${field} must not carry a secret in its query (parameter "${secret}"): it would be shown on every read; put it in the target's write-only headers or api_key field instead`;
  }
  return null;
}

/** A URL as reads show it: userinfo and secret-looking query values masked (campaigns stored before they were refused). */
export function maskUrlSecrets(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  const secretParams = [...url.searchParams.keys()].filter((name) => isSecretParamName(name));
  if (url.username === '' && url.password === '' && secretParams.length === 0) return value;
  if (url.username !== '' || url.password !== '') {
    url.username = '***';
    url.password = '';
  }
  for (const name of secretParams) url.searchParams.set(name, '***');
  return url.toString();
}
