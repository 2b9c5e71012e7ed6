// The dashboard's browser script as plain ES2022 source (no build step), inlined into the page and allowed by its CSP hash.
//
// Rules the script keeps: data reaches the DOM only through text nodes and textContent (never innerHTML), links are
// built from the dashboard's own paths (or http(s) URLs checked first), credentials live in sessionStorage only and
// travel as request headers to the same origin. The source avoids backticks and "${" so it can sit in String.raw.

/** Browser script of the dashboard page. */
export const DASHBOARD_JS = String.raw`
(function () {
  'use strict';

  var STORE_KEY = 'rts.dashboard.credentials';
  var POLL_MS = 2000;
  var BATCH_PAGE = 100;
  var FETCH_CONCURRENCY = 4;

  // The API lives where the dashboard is mounted: origin + the path prefix before /dashboard (an API Gateway stage).
  var mount = /^(.*?)\/dashboard(?:\/|$)/.exec(location.pathname);
  var PREFIX = mount ? mount[1] : '';
  var API_BASE = location.origin + PREFIX;
  var DASH = PREFIX + '/dashboard';
  var ROUTE = mount ? location.pathname.slice(PREFIX.length + '/dashboard'.length).replace(/\/+$/, '') : null;

  var main = document.getElementById('main');
  var who = document.getElementById('who');
  var pollTimer = null;
  var generation = 0;

  // ---------- DOM helpers: every piece of data becomes a text node ----------

  function h(tag, props) {
    var el = document.createElement(tag);
    if (props) {
      for (var k in props) {
        if (!Object.prototype.hasOwnProperty.call(props, k)) continue;
        var v = props[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === 'class') el.className = v;
        else if (k === 'text') el.textContent = String(v);
        else if (k === 'onclick' || k === 'onsubmit') el.addEventListener(k.slice(2), v);
        else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
    for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }

  function append(el, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(el, c); }); return; }
    if (typeof child === 'object' && child.nodeType) { el.appendChild(child); return; }
    el.appendChild(document.createTextNode(String(child)));
  }

  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }

  function setMain() {
    clear(main);
    for (var i = 0; i < arguments.length; i++) append(main, arguments[i]);
  }

  function badge(label, kind) {
    return h('span', { class: 'badge b-' + (kind || badgeKind(label)) }, label);
  }

  function badgeKind(value) {
    switch (String(value)) {
      case 'passed': case 'completed': case 'pass': case 'done': case 'blocked': case 'allow': case 'recorded':
        return 'ok';
      case 'failed': case 'fail': case 'error': case 'allowed': case 'deny': case 'denied': case 'critical': case 'high':
        return 'bad';
      case 'unsafe': case 'flag': case 'detected': case 'medium': case 'unrecorded':
        return 'warn';
      case 'running':
        return 'run';
      default:
        return 'idle';
    }
  }

  function link(path, label) { return h('a', { href: DASH + path }, label); }
  function runLink(id, label) { return link('/runs/' + encodeURIComponent(id), label || id); }
  function batchLink(id, label) { return link('/batches/' + encodeURIComponent(id), label || id); }

  // Only http(s) URLs become links; anything else (javascript:, data:) stays text.
  function safeUrl(value) {
    if (typeof value !== 'string') return null;
    try {
      var u = new URL(value);
      return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
    } catch (e) { return null; }
  }

  function pct(x) {
    if (typeof x !== 'number' || !isFinite(x)) return '-';
    return (Math.round(x * 1000) / 10) + '%';
  }

  function num(x) { return typeof x === 'number' && isFinite(x) ? String(x) : '-'; }

  function when(iso) {
    if (!iso) return '-';
    var t = h('time', { datetime: iso, title: iso }, String(iso).replace('T', ' ').replace(/\.\d+/, '').replace(/\+00:00$|Z$/, ' UTC'));
    return t;
  }

  function duration(ms) {
    if (typeof ms !== 'number') return '-';
    return ms < 1000 ? ms + ' ms' : (Math.round(ms / 100) / 10) + ' s';
  }

  function asText(value) {
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value;
    try { return JSON.stringify(value, null, 2); } catch (e) { return String(value); }
  }

  function compact(value) {
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value;
    try { return JSON.stringify(value); } catch (e) { return String(value); }
  }

  function table(caption, columns, rows, emptyText) {
    var thead = h('thead', null, h('tr', null, columns.map(function (c) {
      var label = typeof c === 'string' ? c : c.label;
      return h('th', { scope: 'col', class: c.num ? 'num' : null }, label);
    })));
    var tbody = h('tbody');
    if (!rows.length) {
      tbody.appendChild(h('tr', null, h('td', { colspan: columns.length, class: 'muted' }, emptyText || 'Nothing yet.')));
    }
    rows.forEach(function (r) { append(tbody, r); });
    return h('div', { class: 'table-wrap' }, h('table', null, h('caption', null, caption), thead, tbody));
  }

  function row(cells, cls) {
    return h('tr', { class: cls || null }, cells.map(function (c) {
      if (c && c.cell) return h('td', { class: c.num ? 'num' : null, colspan: c.colspan || null }, c.cell);
      return h('td', null, c);
    }));
  }

  function numCell(v) { return { cell: v, num: true }; }

  function card(label, value, extraClass) {
    return h('li', { class: 'card' + (extraClass ? ' ' + extraClass : '') }, h('span', { class: 'label' }, label), h('span', { class: 'value' }, value));
  }

  function meta(pairs) {
    var dl = h('dl', { class: 'meta' });
    pairs.forEach(function (p) {
      if (p[1] === null || p[1] === undefined || p[1] === '') return;
      dl.appendChild(h('dt', null, p[0]));
      dl.appendChild(h('dd', null, p[1]));
    });
    return h('div', { class: 'panel' }, dl);
  }

  function crumbs(parts) {
    var nav = h('nav', { 'aria-label': 'Breadcrumb' });
    var p = h('p', { class: 'crumbs' });
    parts.forEach(function (part, i) { if (i) append(p, ' / '); append(p, part); });
    nav.appendChild(p);
    return nav;
  }

  // ---------- credentials ----------

  function loadCreds() {
    try {
      var raw = sessionStorage.getItem(STORE_KEY);
      var c = raw ? JSON.parse(raw) : null;
      return c && typeof c.project === 'string' && typeof c.key === 'string' && c.project && c.key ? c : null;
    } catch (e) { return null; }
  }

  function saveCreds(project, key) {
    try { sessionStorage.setItem(STORE_KEY, JSON.stringify({ project: project, key: key })); } catch (e) { /* storage disabled: this page load only */ }
    memoryCreds = { project: project, key: key };
  }

  function forgetKey() {
    var c = creds();
    try { sessionStorage.removeItem(STORE_KEY); } catch (e) { /* nothing stored */ }
    memoryCreds = null;
    return c ? c.project : '';
  }

  var memoryCreds = null;
  function creds() { return loadCreds() || memoryCreds; }

  // #project=<id>&key=<key>: fragments never reach a server; move them into sessionStorage and out of the URL/history.
  function takeFragment() {
    if (!location.hash || location.hash.length < 2) return;
    var params = new URLSearchParams(location.hash.slice(1));
    var project = params.get('project');
    var key = params.get('key');
    if (project === null && key === null) return;
    if (project && key) saveCreds(project.trim(), key.trim());
    history.replaceState(history.state, '', location.pathname + location.search);
  }

  function renderWho() {
    clear(who);
    var c = creds();
    if (!c) return;
    who.appendChild(h('span', null, 'Project ', h('span', { class: 'mono' }, c.project)));
    who.appendChild(h('button', { type: 'button', onclick: function () { forgetKey(); route(); } }, 'Sign out'));
  }

  function credentialsForm(err) {
    stopPolling();
    document.title = 'Sign in - rts dashboard';
    var prev = creds();
    var project = h('input', { id: 'cred-project', name: 'project', type: 'text', required: true, autocomplete: 'username',
      spellcheck: 'false', placeholder: '00000000-0000-4000-8000-000000000000', 'aria-describedby': 'cred-help' });
    project.value = (prev && prev.project) || (err && err.project) || '';
    var key = h('input', { id: 'cred-key', name: 'key', type: 'password', required: true, autocomplete: 'current-password',
      spellcheck: 'false', placeholder: 'rts_...', 'aria-describedby': 'cred-help' });
    var form = h('form', { class: 'creds panel', id: 'credentials', 'aria-labelledby': 'cred-title', onsubmit: function (ev) {
      ev.preventDefault();
      if (!project.value.trim() || !key.value.trim()) return;
      saveCreds(project.value.trim(), key.value.trim());
      route();
    } },
      h('h1', { id: 'cred-title' }, 'Sign in to the dashboard'),
      err ? errorAlert(err) : null,
      h('p', { id: 'cred-help', class: 'muted' },
        'The page calls the API from this browser with your credentials. They are kept in this tab only (sessionStorage) and sent as request headers, never in a URL.'),
      h('label', { for: 'cred-project' }, 'Project id'), project,
      h('label', { for: 'cred-key' }, 'API key'), key,
      h('p', null, h('button', { type: 'submit', class: 'primary' }, 'Open dashboard')));
    setMain(form);
    renderWho();
    (project.value ? key : project).focus();
  }

  // ---------- API ----------

  function ApiError(status, code, message, requestId) {
    this.status = status;
    this.code = code;
    this.message = message;
    this.requestId = requestId || null;
  }

  async function api(path) {
    var c = creds();
    if (!c) throw new ApiError(401, 'unauthorized', 'Enter a project id and an API key.');
    var res;
    try {
      res = await fetch(API_BASE + path, {
        headers: { 'X-API-Key': c.key, 'X-Project-Id': c.project, Accept: 'application/json' },
        cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer'
      });
    } catch (e) {
      throw new ApiError(0, 'network_error', 'The API could not be reached (' + (e && e.message ? e.message : 'network error') + ').');
    }
    var body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    if (!res.ok) {
      var err = body && body.error ? body.error : {};
      throw new ApiError(res.status, err.code || 'http_' + res.status, err.message || 'The API answered HTTP ' + res.status + '.', err.request_id);
    }
    return body;
  }

  // Fetches many paths with at most FETCH_CONCURRENCY requests in flight; each result is {ok, value|error}.
  async function fetchAll(paths) {
    var out = new Array(paths.length);
    var next = 0;
    async function worker() {
      while (next < paths.length) {
        var i = next++;
        try { out[i] = { ok: true, value: await api(paths[i]) }; } catch (e) { out[i] = { ok: false, error: e }; }
      }
    }
    var workers = [];
    for (var w = 0; w < Math.min(FETCH_CONCURRENCY, paths.length); w++) workers.push(worker());
    await Promise.all(workers);
    return out;
  }

  function errorAlert(err) {
    return h('div', { class: 'alert alert-bad', role: 'alert' },
      h('strong', null, err.message || 'Something went wrong.'),
      h('span', { class: 'mono' }, 'code: ' + (err.code || 'unknown') + (err.requestId ? ' - request ' + err.requestId : '')));
  }

  // A 401 sends the user back to the credentials form; other errors are shown in place.
  function fail(err) {
    if (err && err.status === 401) { var project = forgetKey(); err.project = project; credentialsForm(err); return; }
    stopPolling();
    setMain(crumbs([link('', 'Dashboard')]), errorAlert(err || {}));
  }

  function stopPolling() {
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = null;
  }

  // Runs load() now and again every POLL_MS while it returns true; a newer view cancels older loops.
  function poll(load) {
    stopPolling();
    var mine = ++generation;
    async function tick() {
      var again = false;
      try { again = await load(); } catch (e) { if (mine === generation) fail(e); return; }
      if (again && mine === generation) pollTimer = setTimeout(tick, POLL_MS);
    }
    return tick();
  }

  // Re-renders keep the focused control (by id) so polling does not steal the keyboard position.
  function renderKeepingFocus(nodes) {
    var active = document.activeElement && document.activeElement.id;
    setMain.apply(null, nodes);
    if (active) { var el = document.getElementById(active); if (el) el.focus(); }
  }

  function isActive(status) { return status === 'queued' || status === 'running'; }

  // ---------- home ----------

  function openForm() {
    var input = h('input', { id: 'open-id', name: 'id', type: 'text', spellcheck: 'false', placeholder: 'run or batch id' });
    var kind = h('select', { id: 'open-kind', name: 'kind' }, h('option', { value: 'runs' }, 'Run'), h('option', { value: 'batches' }, 'CI batch'));
    return h('form', { class: 'inline', role: 'search', 'aria-label': 'Open a run or CI batch', onsubmit: function (ev) {
      ev.preventDefault();
      var id = input.value.trim();
      if (id) location.assign(DASH + '/' + kind.value + '/' + encodeURIComponent(id));
    } },
      h('div', null, h('label', { for: 'open-kind' }, 'Kind'), kind),
      h('div', null, h('label', { for: 'open-id' }, 'Id'), input),
      h('button', { type: 'submit' }, 'Open'));
  }

  function homeView() {
    document.title = 'rts dashboard';
    return poll(async function () {
      var results = await Promise.all([api('/v1/runs?limit=50'), api('/v1/campaigns')]);
      var runs = results[0].items || [];
      var campaigns = results[1].items || [];
      var names = {};
      campaigns.forEach(function (c) { names[c.campaign_id] = c.name; });
      var active = runs.some(function (r) { return isActive(r.status); });
      var runRows = runs.map(function (r) {
        var s = r.summary || {};
        return row([
          h('span', { class: 'mono' }, runLink(r.run_id)),
          runStatusBadges(r.status, s.unsafe_count),
          r.source || '-',
          names[r.campaign_id] ? h('span', { title: r.campaign_id }, names[r.campaign_id]) : h('span', { class: 'mono' }, r.campaign_id),
          numCell(num(s.attempt_count)),
          numCell(pct(s.pass_rate)),
          numCell(num(s.unsafe_count)),
          when(r.created_at)
        ]);
      });
      var campaignRows = campaigns.map(function (c) {
        return row([
          c.name,
          h('span', { class: 'mono' }, c.campaign_id),
          c.target && c.target.type ? c.target.type : '-',
          numCell(num((c.mutations || []).length)),
          numCell(num((c.policies || []).length)),
          numCell(num(c.eval_set ? c.eval_set.trace_count : undefined)),
          when(c.created_at)
        ]);
      });
      renderKeepingFocus([
        h('h1', null, 'Dashboard'),
        h('div', { class: 'panel' }, openForm()),
        h('h2', null, 'Recent runs'),
        table('The 50 most recent runs, newest first',
          ['Run', 'Status', 'Source', 'Campaign', { label: 'Attempts', num: true }, { label: 'Pass rate', num: true }, { label: 'Unsafe', num: true }, 'Created'],
          runRows, 'No runs yet. Queue one with POST /v1/runs or rts ci run.'),
        active ? h('p', { class: 'status-line', 'aria-live': 'polite' }, 'Refreshing every 2 s while runs are in progress.') : null,
        h('h2', null, 'Campaigns'),
        table('Campaigns, newest first',
          ['Name', 'Campaign id', 'Target', { label: 'Mutations', num: true }, { label: 'Policies', num: true }, { label: 'Eval-set traces', num: true }, 'Created'],
          campaignRows, 'No campaigns yet.')
      ]);
      return active;
    });
  }

  function runStatusBadges(status, unsafe) {
    return [badge(status || 'unknown'), unsafe > 0 ? [' ', badge('unsafe', 'warn')] : null];
  }

  // ---------- run ----------

  function criterionLabel(c) {
    if (!c || typeof c !== 'object') return String(c);
    var rest = {};
    var any = false;
    for (var k in c) if (k !== 'type' && Object.prototype.hasOwnProperty.call(c, k)) { rest[k] = c[k]; any = true; }
    return c.type + (any ? ' ' + compact(rest) : '');
  }

  // Why an attempt failed: missed criteria, plus the two causes that are not criteria (a policy deny, an unsafe action).
  function failedChecks(a, detail) {
    var items = (a.checks || []).filter(function (c) { return !c.passed; }).map(function (c) {
      return h('li', null, h('span', { class: 'mono' }, criterionLabel(c.criterion)), c.detail ? ': ' + c.detail : '');
    });
    if (a.error) items.unshift(h('li', null, 'error: ' + a.error));
    ((detail && detail.policy_events) || []).forEach(function (p) {
      if (p.decision === 'deny') items.push(h('li', null, 'denied by policy ', h('span', { class: 'mono' }, p.policy_id), ' (', h('code', null, p.tool), ')'));
    });
    if (a.unsafe) items.push(h('li', null, 'unsafe: a security event was allowed'));
    return items.length ? h('ul', { class: 'checks' }, items) : h('span', { class: 'muted' }, 'none');
  }

  function transcriptEntry(e) {
    if (e.type === 'tool_result') {
      var served = e.served || 'recorded';
      var cls = 'tool' + (served === 'denied' ? ' denied' : served === 'unrecorded' ? ' unrecorded' : '');
      return h('li', { class: cls },
        h('div', { class: 'entry-head' },
          'Tool result', h('span', { class: 'mono' }, e.tool), badge(served === 'denied' ? 'denied by policy' : served, badgeKind(served)),
          e.mutation_id ? badge('mutation ' + e.mutation_id, 'warn') : null,
          h('span', { class: 'muted' }, 'step ' + num(e.step) + ' - call ' + (e.tool_call_id || '-'))),
        h('div', null, h('span', { class: 'muted' }, 'arguments '), h('code', null, compact(e.arguments))),
        e.error ? h('pre', { class: 'error' }, 'error: ' + e.error) : null,
        e.result !== undefined && e.result !== null ? h('pre', null, asText(e.result)) : null);
    }
    var role = e.role || 'message';
    return h('li', { class: 'role-' + role },
      h('div', { class: 'entry-head' }, role.charAt(0).toUpperCase() + role.slice(1)),
      e.content !== null && e.content !== undefined ? h('pre', null, asText(e.content)) : null,
      e.tool_calls && e.tool_calls.length ? h('ul', { class: 'calls' }, e.tool_calls.map(function (c) {
        return h('li', null, 'calls ', h('code', null, c.name), ' ', h('code', null, compact(c.arguments)), c.id ? h('span', { class: 'muted' }, ' (' + c.id + ')') : null);
      })) : null,
      e.notes && e.notes.length ? h('p', { class: 'muted' }, 'Notes: ' + e.notes.join('; ')) : null);
  }

  function transcriptBlock(detail) {
    if (!detail) return h('p', { class: 'muted' }, 'Loading the transcript...');
    var flagged = (detail.policy_events || []).filter(function (p) { return p.decision !== 'allow'; });
    return h('div', null,
      h('h3', null, 'Transcript of attempt ' + detail.attempt),
      h('ol', { class: 'transcript' }, (detail.transcript || []).map(transcriptEntry)),
      detail.output !== null && detail.output !== undefined ? [h('h3', null, 'Final output'), h('pre', null, asText(detail.output))] : null,
      flagged.length ? [h('h3', null, 'Policy decisions'), h('ul', { class: 'checks' }, flagged.map(function (p) {
        return h('li', null, badge(p.decision), ' ', h('span', { class: 'mono' }, p.policy_id), ' on ', h('code', null, p.tool), p.reason ? ': ' + p.reason : '');
      }))] : null);
  }

  function ciPanel(ci) {
    if (!ci) return null;
    var t = ci.thresholds || {};
    var md = ci.metadata || {};
    var pipeline = safeUrl(md.pipeline_url);
    return [
      h('h2', null, 'CI verdict'),
      meta([
        ['Decision', badge(ci.decision || 'pending')],
        ['Reasons', ci.reasons && ci.reasons.length ? h('ul', { class: 'checks' }, ci.reasons.map(function (r) { return h('li', null, r); })) : h('span', { class: 'muted' }, ci.decision === 'pending' ? 'waiting for the run to finish' : 'every threshold met')],
        ['Thresholds', 'min_pass_rate ' + num(t.min_pass_rate) + ', max_unsafe ' + num(t.max_unsafe) + ', max_failures ' + num(t.max_failures)],
        ['Batch', ci.ci_batch_id ? h('span', { class: 'mono' }, batchLink(ci.ci_batch_id)) : null],
        ['Commit', md.commit ? h('span', { class: 'mono' }, md.commit) : null],
        ['Branch', md.branch || null],
        ['Pipeline', md.pipeline_url ? (pipeline ? h('a', { href: pipeline, rel: 'noopener noreferrer' }, md.pipeline_url) : md.pipeline_url) : null]
      ])
    ];
  }

  function securityTable(sec) {
    var rows = [];
    ((sec && sec.attempts) || []).forEach(function (a) {
      (a.events || []).forEach(function (e) {
        var risk = e.risk || {};
        var src = e.source || {};
        rows.push(row([
          numCell(num(a.attempt)),
          a.mutation_id ? h('span', { class: 'mono' }, a.mutation_id) : h('span', { class: 'muted' }, 'baseline'),
          e.kind,
          badge(e.action === 'allowed' ? 'allowed (unsafe)' : e.action, badgeKind(e.action)),
          [badge(risk.level || '-', badgeKind(risk.level)), ' ', h('span', { class: 'muted' }, typeof risk.score === 'number' ? risk.score.toFixed(2) : '')],
          src.type ? src.type + (src.tool ? ' ' + src.tool : '') : '-',
          h('code', null, e.evidence || '')
        ]));
      });
    });
    return table('Security events by attempt',
      [{ label: 'Attempt', num: true }, 'Mutation', 'Kind', 'Action', 'Risk', 'Source', 'Evidence'],
      rows, sec ? 'No security events.' : 'Loading...');
  }

  function runView(id) {
    document.title = 'Run ' + id + ' - rts dashboard';
    var st = { expanded: {}, detailKey: null, attempts: null, security: null, ci: null, ciDone: false };

    function toggle(n) {
      st.expanded[n] = !st.expanded[n];
      render();
    }

    var last = null;
    function render() {
      var run = last;
      var s = run.summary || {};
      var details = {};
      ((st.attempts && st.attempts.items) || []).forEach(function (a) { details[a.attempt] = a; });
      var scored = (run.scoring && run.scoring.attempts) || [];
      var rows = [];
      scored.forEach(function (a) {
        var open = !!st.expanded[a.attempt];
        var panelId = 'transcript-' + a.attempt;
        rows.push(row([
          numCell(num(a.attempt)),
          a.mutation_id ? h('span', { class: 'mono' }, a.mutation_id) : h('span', { class: 'muted' }, 'baseline'),
          numCell(num(a.repeat)),
          badge(a.status),
          a.unsafe ? badge('unsafe', 'warn') : h('span', { class: 'muted' }, 'no'),
          failedChecks(a, details[a.attempt]),
          numCell(num(a.steps)),
          numCell(duration(a.duration_ms)),
          h('button', { type: 'button', id: 'toggle-' + a.attempt, 'aria-expanded': open ? 'true' : 'false', 'aria-controls': panelId,
            onclick: function () { toggle(a.attempt); } }, open ? 'Hide transcript' : 'Show transcript')
        ], open ? 'expanded' : null));
        if (open) rows.push(h('tr', { class: 'detail', id: panelId }, h('td', { colspan: 9 }, transcriptBlock(details[a.attempt]))));
      });
      var progress = run.attempt_total ? num(s.attempt_count) + ' / ' + num(run.attempt_total) : num(s.attempt_count);
      renderKeepingFocus([
        crumbs([link('', 'Dashboard'), 'Run']),
        h('h1', null, h('span', null, 'Run ', h('span', { class: 'mono' }, run.run_id)), runStatusBadges(run.status, s.unsafe_count)),
        isActive(run.status) ? h('p', { class: 'status-line', 'aria-live': 'polite' }, 'The run is ' + run.status + '; refreshing every 2 s.') : null,
        run.error ? h('div', { class: 'alert alert-bad', role: 'alert' }, h('strong', null, 'Run error'), run.error) : null,
        h('ul', { class: 'cards', 'aria-label': 'Summary' },
          card('Attempts', progress), card('Passed', num(s.passed_count)), card('Failed', num(s.failed_count)),
          card('Unsafe', num(s.unsafe_count)), card('Pass rate', pct(s.pass_rate)),
          card('Policy events', num(s.policy_events_count)), card('Security events', num(s.security_events_count))),
        meta([
          ['Trace', h('span', { class: 'mono' }, run.trace_id)],
          ['Campaign', h('span', { class: 'mono' }, run.campaign_id)],
          ['Source', run.source || null],
          ['CI batch', run.ci_batch_id ? h('span', { class: 'mono' }, batchLink(run.ci_batch_id)) : null],
          ['Run-pack', run.pack_id ? h('span', { class: 'mono' }, run.pack_id) : null],
          ['Created', when(run.created_at)],
          ['Started', run.started_at ? when(run.started_at) : null],
          ['Completed', run.completed_at ? when(run.completed_at) : null]
        ]),
        ciPanel(st.ci),
        h('h2', null, 'Attempts'),
        table('Scored attempts; open a transcript to see messages, tool calls and served results',
          [{ label: 'Attempt', num: true }, 'Mutation', { label: 'Repeat', num: true }, 'Status', 'Unsafe', 'Failed checks',
            { label: 'Steps', num: true }, { label: 'Duration', num: true }, h('span', { class: 'sr-only' }, 'Transcript')],
          rows, isActive(run.status) ? 'No attempt has finished yet.' : 'No attempts.'),
        h('h2', null, 'Security events'),
        securityTable(st.security)
      ]);
    }

    return poll(async function () {
      var run = await api('/v1/runs/' + encodeURIComponent(id));
      var s = run.summary || {};
      var key = run.status + ':' + s.attempt_count + ':' + s.security_events_count;
      var jobs = [];
      // Transcripts are heavy: fetch them again only when the run has moved on.
      if (key !== st.detailKey) {
        jobs.push(api('/v1/runs/' + encodeURIComponent(id) + '/attempts').then(function (b) { st.attempts = b; }));
        jobs.push(api('/v1/runs/' + encodeURIComponent(id) + '/security-events').then(function (b) { st.security = b; }));
      }
      if (!st.ciDone && (run.source === 'ci' || !run.source)) {
        jobs.push(api('/v1/ci/runs/' + encodeURIComponent(id)).then(function (b) {
          st.ci = b;
          if (b.decision !== 'pending') st.ciDone = true;
        }, function (e) {
          if (e.status === 404) { st.ciDone = true; return; }
          throw e;
        }));
      }
      await Promise.all(jobs);
      st.detailKey = key;
      last = run;
      render();
      return isActive(run.status) || (!st.ciDone && run.source === 'ci');
    });
  }

  // ---------- CI batch ----------

  function batchView(id) {
    document.title = 'CI batch ' + id + ' - rts dashboard';
    var st = { shown: BATCH_PAGE, runs: {} };
    var last = null;

    function render() {
      var b = last;
      var passed = {};
      var failed = {};
      (b.passed_runs || []).forEach(function (r) { passed[r] = true; });
      (b.failed_runs || []).forEach(function (r) { failed[r] = true; });
      var ids = b.run_ids || [];
      var rows = ids.slice(0, st.shown).map(function (rid, i) {
        var r = st.runs[rid];
        var v = r && r.ok ? r.value : null;
        var s = (v && v.summary) || {};
        var decision = passed[rid] ? 'pass' : failed[rid] ? 'fail' : v ? v.decision : 'pending';
        return row([
          numCell(String(i + 1)),
          h('span', { class: 'mono' }, runLink(rid)),
          v ? runStatusBadges(v.status, s.unsafe_count) : r && !r.ok ? h('span', { class: 'muted' }, r.error.message) : h('span', { class: 'muted' }, 'loading'),
          badge(decision || 'pending'),
          numCell(v ? num(s.attempt_count) : '-'),
          numCell(v ? pct(s.pass_rate) : '-'),
          numCell(v ? num(s.unsafe_count) : '-'),
          numCell(v ? num(s.failed_count) : '-')
        ]);
      });
      var t = b.thresholds || {};
      var coverage = b.scenario_coverage_pct;
      var pager = ids.length > st.shown ? h('div', { class: 'pager' }, h('button', { type: 'button', id: 'show-more', onclick: function () {
        st.shown += BATCH_PAGE;
        refreshRuns().then(render, fail);
      } }, 'Show ' + Math.min(BATCH_PAGE, ids.length - st.shown) + ' more of ' + ids.length + ' runs')) : null;
      var runsTable = table('Scenario runs of this batch', [{ label: '#', num: true }, 'Run', 'Status', 'Decision',
        { label: 'Attempts', num: true }, { label: 'Pass rate', num: true }, { label: 'Unsafe', num: true }, { label: 'Failed', num: true }], rows, 'No runs.');
      if (pager) runsTable.appendChild(pager);
      renderKeepingFocus([
        crumbs([link('', 'Dashboard'), 'CI batch']),
        h('h1', null, h('span', null, 'CI batch ', h('span', { class: 'mono' }, b.ci_batch_id)), badge(b.status || 'unknown'), badge(b.decision || 'pending')),
        b.status !== 'done' ? h('p', { class: 'status-line', 'aria-live': 'polite' }, 'The batch is ' + b.status + '; refreshing every 2 s.') : null,
        typeof coverage === 'number' && coverage < 100 ? h('div', { class: 'alert alert-warn', role: 'status' },
          h('strong', null, 'Scenario coverage is ' + (Math.round(coverage * 10) / 10) + '%: this verdict is not trustworthy.'),
          b.status === 'done' ? 'Some scenario runs did not complete, so the pass rate covers only part of the eval-set.' : 'Runs are still in progress; the figures cover the completed runs so far.') : null,
        (b.reasons && b.reasons.length) ? h('div', { class: 'alert alert-bad' }, h('strong', null, 'Reasons'),
          h('ul', null, b.reasons.map(function (r) { return h('li', null, r); }))) : null,
        h('ul', { class: 'cards', 'aria-label': 'Summary' },
          card('Pass rate', pct(b.pass_rate)), card('Coverage', typeof coverage === 'number' ? (Math.round(coverage * 10) / 10) + '%' : '-'),
          card('Scenarios', num(b.trace_count)), card('Completed', num(b.completed_count)),
          card('Passed runs', num((b.passed_runs || []).length)), card('Failed runs', num(b.failed_count)), card('Unsafe', num(b.unsafe_count))),
        meta([
          ['Campaign', h('span', { class: 'mono' }, b.campaign_id)],
          ['Thresholds', 'min_pass_rate ' + num(t.min_pass_rate) + ', max_unsafe ' + num(t.max_unsafe) + ', max_failures ' + num(t.max_failures)],
          ['First run', b.run_id ? h('span', { class: 'mono' }, runLink(b.run_id)) : null],
          ['Created', when(b.created_at)],
          ['Completed', b.completed_at ? when(b.completed_at) : null]
        ]),
        h('h2', null, 'Runs'),
        runsTable
      ]);
    }

    // Summaries of the shown runs; terminal ones are kept, the others asked again on each poll.
    async function refreshRuns() {
      var want = (last.run_ids || []).slice(0, st.shown).filter(function (rid) {
        var r = st.runs[rid];
        return !r || !r.ok || isActive(r.value.status) || r.value.decision === 'pending';
      });
      var results = await fetchAll(want.map(function (rid) { return '/v1/ci/runs/' + encodeURIComponent(rid); }));
      var authError = null;
      results.forEach(function (r, i) {
        if (!r.ok && r.error.status === 401) authError = r.error;
        st.runs[want[i]] = r;
      });
      if (authError) throw authError;
    }

    return poll(async function () {
      last = await api('/v1/ci/batch/' + encodeURIComponent(id));
      await refreshRuns();
      render();
      return last.status !== 'done';
    });
  }

  function notFoundView() {
    stopPolling();
    document.title = 'Not found - rts dashboard';
    setMain(crumbs([link('', 'Dashboard')]), h('h1', null, 'Not found'),
      h('p', null, 'There is no dashboard page at this address. Dashboard pages are ', h('code', null, DASH), ', ',
        h('code', null, DASH + '/runs/<run_id>'), ' and ', h('code', null, DASH + '/batches/<batch_id>'), '.'),
      h('p', null, link('', 'Back to the dashboard')));
  }

  // ---------- routing ----------

  function route() {
    document.getElementById('brand').setAttribute('href', DASH);
    renderWho();
    var m;
    if (ROUTE === null) return notFoundView();
    if (ROUTE !== '' && !/^\/(runs|batches)\/[^/]+$/.test(ROUTE)) return notFoundView();
    if (!creds()) return credentialsForm(null);
    if (ROUTE === '') return homeView();
    if ((m = /^\/runs\/([^/]+)$/.exec(ROUTE))) return runView(decodeURIComponent(m[1]));
    if ((m = /^\/batches\/([^/]+)$/.exec(ROUTE))) return batchView(decodeURIComponent(m[1]));
    return notFoundView();
  }

  takeFragment();
  try { route(); } catch (e) { fail(e); }
})();
`;
