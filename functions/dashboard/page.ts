// The dashboard's single HTML document and its Content-Security-Policy, built once per cold start.
import { createHash } from 'node:crypto';
import { dashboardScript } from './script';
import { DASHBOARD_CSS } from './styles';

const DASHBOARD_JS = dashboardScript();

function cspHash(source: string): string {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;
}

// The inline blocks must not be able to end their own element early: the HTML parser would cut them there.
for (const [name, source] of [
  ['script', DASHBOARD_JS],
  ['style', DASHBOARD_CSS],
] as const) {
  if (/<\/(script|style)|<!--/i.test(source)) throw new Error(`dashboard ${name} contains a sequence that would break its inline element`);
}

/**
 * The page's CSP. Inline script and style are allowed by their SHA-256 hashes only (no 'unsafe-inline', no eval, no
 * inline event handlers); the script may talk to its own origin (the API) and nothing else; no framing, no plugins.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  `script-src ${cspHash(DASHBOARD_JS)}`,
  `style-src ${cspHash(DASHBOARD_CSS)}`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The one HTML document served for every dashboard path; the script routes on `location.pathname`. */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>rts dashboard</title>
<link rel="icon" href="data:,">
<style>${DASHBOARD_CSS}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a href="#main" id="brand">rts dashboard</a><nav class="sections" id="nav" aria-label="Sections"></nav><div class="who" id="who"></div></header>
<main id="main" tabindex="-1"><noscript>The dashboard needs JavaScript.</noscript><p class="muted">Loading...</p></main>
<script>${DASHBOARD_JS}</script>
</body>
</html>
`;
