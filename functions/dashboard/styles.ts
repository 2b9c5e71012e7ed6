// The dashboard's stylesheet, inlined into the page (the CSP allows it by hash): system font, neutral palette, badges.

/** CSS of the dashboard page. Colours keep at least 4.5:1 contrast for text; focus is always visible. */
export const DASHBOARD_CSS = `
:root {
  --bg: #f6f7f9; --panel: #ffffff; --text: #1f2328; --muted: #57606a; --border: #d0d7de; --accent: #0a58ca;
  --ok-bg: #dafbe1; --ok-fg: #116329; --bad-bg: #ffebe9; --bad-fg: #a40e26; --warn-bg: #fff1e5; --warn-fg: #953800;
  --idle-bg: #eaeef2; --idle-fg: #3d444d; --run-bg: #ddf4ff; --run-fg: #0550ae; --focus: #0969da;
}
* { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; font-size: 15px; }
body { margin: 0; background: var(--bg); color: var(--text); line-height: 1.45; }
a { color: var(--accent); }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 3px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--panel); padding: .5rem 1rem; }
.skip:focus { left: 1rem; }
header.top { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: .75rem 1.5rem;
  background: #24292f; color: #fff; }
header.top a { color: #fff; text-decoration: none; font-weight: 600; }
header.top .who { font-size: .85rem; color: #d0d7de; display: flex; gap: .75rem; align-items: center; }
header.top button { background: transparent; color: #fff; border: 1px solid #8c959f; }
main { max-width: 1200px; margin: 0 auto; padding: 1.25rem 1.5rem 3rem; }
h1 { font-size: 1.4rem; margin: .25rem 0 .75rem; display: flex; align-items: center; gap: .6rem; flex-wrap: wrap; }
h2 { font-size: 1.1rem; margin: 1.75rem 0 .6rem; }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
.crumbs { font-size: .85rem; color: var(--muted); margin: 0; }
.muted { color: var(--muted); }
.mono, code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; }
.panel { background: var(--panel); border: 1px solid var(--border); border-radius: 8px; padding: 1rem 1.25rem; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
.meta dt { color: var(--muted); }
.meta dd { margin: 0; overflow-wrap: anywhere; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(120px, 1fr)); gap: .75rem; margin: 1rem 0; padding: 0; list-style: none; }
.card { background: var(--panel); border: 1px solid var(--border); border-radius: 8px; padding: .6rem .9rem; }
.card .label { display: block; color: var(--muted); font-size: .8rem; }
.card .value { display: block; font-size: 1.35rem; font-weight: 600; }
.badge { display: inline-block; padding: .05rem .55rem; border-radius: 999px; font-size: .8rem; font-weight: 600;
  border: 1px solid transparent; white-space: nowrap; vertical-align: middle; }
.b-ok { background: var(--ok-bg); color: var(--ok-fg); border-color: #aceebb; }
.b-bad { background: var(--bad-bg); color: var(--bad-fg); border-color: #ffcecb; }
.b-warn { background: var(--warn-bg); color: var(--warn-fg); border-color: #ffd8b5; }
.b-idle { background: var(--idle-bg); color: var(--idle-fg); border-color: #d0d7de; }
.b-run { background: var(--run-bg); color: var(--run-fg); border-color: #b6e3ff; }
.table-wrap { overflow-x: auto; background: var(--panel); border: 1px solid var(--border); border-radius: 8px; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; padding: .6rem .9rem; font-weight: 600; caption-side: top; }
th, td { text-align: left; padding: .45rem .6rem; border-top: 1px solid var(--border); vertical-align: top; }
thead th { background: #f6f8fa; font-size: .8rem; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
td .mono, td time, td .badge { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.expanded > td { background: #f6f8fa; }
tr.detail > td { background: #fbfcfd; padding: .75rem 1rem 1rem; }
ul.checks { margin: 0; padding-left: 1.1rem; }
ul.checks li { margin: .1rem 0; }
button { font: inherit; cursor: pointer; padding: .3rem .8rem; border-radius: 6px; border: 1px solid var(--border);
  background: #f6f8fa; color: var(--text); }
button.primary { background: #1f883d; border-color: #1a7f37; color: #fff; font-weight: 600; }
button:hover { filter: brightness(.96); }
form.creds { max-width: 460px; margin: 2rem auto; }
form.creds label { display: block; font-weight: 600; margin: .8rem 0 .25rem; }
form.creds input { width: 100%; }
input, select { font: inherit; padding: .4rem .55rem; border: 1px solid #8c959f; border-radius: 6px; background: #fff; color: var(--text); }
form.inline { display: flex; gap: .5rem; flex-wrap: wrap; align-items: flex-end; }
form.inline label { display: block; font-size: .85rem; color: var(--muted); }
form.inline input { min-width: 22rem; }
.alert { border-radius: 8px; padding: .75rem 1rem; margin: 1rem 0; border: 1px solid; }
.alert-bad { background: var(--bad-bg); color: var(--bad-fg); border-color: #ffcecb; }
.alert-warn { background: var(--warn-bg); color: var(--warn-fg); border-color: #ffd8b5; }
.alert strong { display: block; }
.alert ul { margin: .35rem 0 0; padding-left: 1.2rem; }
ol.transcript { list-style: none; margin: 0; padding: 0; display: grid; gap: .5rem; }
ol.transcript > li { border: 1px solid var(--border); border-left: 4px solid #8c959f; border-radius: 6px; background: var(--panel); padding: .5rem .75rem; }
ol.transcript > li.role-user { border-left-color: #0969da; }
ol.transcript > li.role-assistant { border-left-color: #8250df; }
ol.transcript > li.tool { border-left-color: #1a7f37; }
ol.transcript > li.denied { border-left-color: var(--bad-fg); background: var(--bad-bg); }
ol.transcript > li.unrecorded { border-left-color: var(--warn-fg); }
ol.transcript > li.injected { border-left-color: #bf3989; border-left-width: 6px; }
ol.transcript > li.turn-boundary { border: 0; border-top: 2px dashed var(--border); border-radius: 0; background: none; padding: .25rem 0 0; font-weight: 600; }
.inj-note { margin: .35rem 0 0; font-size: .85rem; color: #99286e; }
mark.inj, pre.inj-all { background: #ffd8e8; color: #4d0f2f; outline: 1px solid #e85aad; border-radius: 2px; }
mark.canary { background: #ffebe9; color: var(--bad-fg); font-weight: 700; outline: 1px dashed var(--bad-fg); }
.hidden-tags { background: #fbefff; color: #6639ba; border: 1px dashed #8250df; border-radius: 3px; padding: 0 .2rem; font-style: italic; }
tr.targeted > td { background: #fff8c5; }
.matrix th[scope="row"] { font-weight: 600; white-space: nowrap; }
.matrix th.mx-col, .matrix td.mx-cell { text-align: center; }
.mx-type { display: block; font-size: .7rem; color: var(--muted); text-transform: none; letter-spacing: 0; font-weight: 400; }
.mx { display: inline-block; min-width: 5.5rem; padding: .15rem .5rem; border-radius: 6px; font-weight: 600; font-size: .85rem;
  border: 1px solid; text-decoration: none; white-space: nowrap; font-variant-numeric: tabular-nums; }
a.mx:hover { text-decoration: underline; }
.mx-sym { margin-right: .15rem; }
.mx-passed { background: var(--ok-bg); color: var(--ok-fg); border-color: #4ac26b; }
.mx-failed { background: var(--bad-bg); color: var(--bad-fg); border-color: #ff8182; }
.matrix thead th .mono { text-transform: none; letter-spacing: 0; }
.mx-unsafe { background: #bf3989; color: #fff; border-color: #99286e; }
.mx-error { background: var(--warn-bg); color: var(--warn-fg); border-color: #fb8f44; }
.mx-pending, .mx-none { background: var(--idle-bg); color: var(--idle-fg); border-color: #d0d7de; border-style: dashed; }
.mx-legend { font-size: .8rem; margin: .4rem 0 0; }
.mx-legend .mx { min-width: 0; }
.entry-head { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; font-size: .85rem; font-weight: 600; }
pre { margin: .35rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; border-radius: 4px; padding: .4rem .55rem; }
pre.clip { max-height: 24rem; overflow: auto; box-shadow: inset 0 -10px 8px -8px rgba(31,35,40,.25); }
button.more { margin-top: .3rem; font-size: .8rem; padding: .15rem .6rem; }
.calls { margin: .35rem 0 0; padding-left: 1.1rem; }
.status-line { font-size: .85rem; color: var(--muted); margin: .25rem 0 0; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.pager { padding: .6rem .9rem; border-top: 1px solid var(--border); }
header.top nav.sections { display: flex; gap: 1rem; margin-right: auto; margin-left: 1rem; }
header.top nav.sections a { font-weight: 400; color: #d0d7de; }
header.top nav.sections a[aria-current="page"] { color: #fff; text-decoration: underline; text-underline-offset: 4px; }
.subtitle { margin: -.25rem 0 .75rem; color: var(--muted); }
.card-bad { border-color: #ffcecb; background: var(--bad-bg); }
.card-bad .value { color: var(--bad-fg); }
.card-warn { border-color: #ffd8b5; background: var(--warn-bg); }
.card-warn .value { color: var(--warn-fg); }
.filters { display: flex; gap: .4rem; flex-wrap: wrap; margin: 0 0 .6rem; }
.filters button[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
tr.cell-failed > td { background: #fff8f7; }
.scenario-detail { display: grid; gap: .6rem; }
.scenario-detail .alert { margin: 0; }
.panel + .panel { margin-top: 1rem; }
figure.interval { margin: 0; }
figure.interval figcaption { font-weight: 600; margin-bottom: .35rem; }
.iv-scale { display: flex; align-items: center; gap: .5rem; font-size: .8rem; color: var(--muted); }
svg.interval-bar { flex: 1; height: 24px; display: block; }
.iv-track { fill: #eaeef2; }
.iv-range { fill: #54aeff; }
.iv-point { stroke: #1f2328; stroke-width: 3; }
.iv-threshold { stroke: var(--bad-fg); stroke-width: 2; stroke-dasharray: 4 3; }
.iv-text { margin: .35rem 0 0; font-variant-numeric: tabular-nums; }
.url { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; overflow-wrap: anywhere; }
td .url { display: inline-block; min-width: 8rem; max-width: 22rem; }
.delivery-id { display: block; font-size: .75rem; color: var(--muted); }
.error-text { color: var(--bad-fg); font-weight: 600; overflow-wrap: anywhere; }
.alert .error-text { display: inline; }
ol.tries { margin: 0; padding-left: 0; list-style: none; font-size: .85rem; }
ol.tries li { margin: .1rem 0; white-space: nowrap; }
.result { border-radius: 6px; padding: .4rem .6rem; margin: .4rem 0; border: 1px solid; font-size: .85rem; display: grid; gap: .15rem; }
.result-ok { background: var(--ok-bg); color: var(--ok-fg); border-color: #aceebb; }
.result-bad { background: var(--bad-bg); color: var(--bad-fg); border-color: #ffcecb; }
td .result { min-width: 12rem; max-width: 18rem; white-space: normal; }
.actions h3:first-child { margin-top: 0; }
form.recover input { min-width: 14rem; }
.form-note { flex-basis: 100%; margin: 0; font-size: .85rem; }
button[aria-disabled="true"] { opacity: .65; cursor: progress; }
`;
