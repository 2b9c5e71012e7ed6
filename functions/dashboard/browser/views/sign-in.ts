// The sign-in form: project id and API key, kept in this tab only; shown without credentials and after a 401.
import { creds, linkedProject, saveCreds, takeRefusedLinkKey } from '../credentials';
import { h, setMain } from '../dom';
import { renderWho } from '../header';
import { reroute } from '../navigation';
import { stopPolling } from '../polling';
import { errorAlert, type Problem } from '../widgets';

/** What the form says when the page was opened with an API key in its address. */
const KEY_IN_LINK: Problem = {
  message:
    'This link carried an API key. It was not used and has been removed from the address: a key in a link stays in the browser history. Sign in below; if the link was shared or synced, revoke the key and issue a new one.',
  code: 'key_in_link',
};

/**
 * Shows the form, with `err` above it when there is one; `lastProject` prefills the project id after a sign-out, else
 * the project id the page's link carried. The inputs have no `name`, so even a submission the script did not catch
 * would put neither value in a URL.
 */
export function signInView(err: Problem | null, lastProject = ''): void {
  stopPolling();
  if (!err && takeRefusedLinkKey()) err = KEY_IN_LINK;
  document.title = 'Sign in - rts dashboard';
  const prev = creds();
  const project = h('input', {
    id: 'cred-project',
    type: 'text',
    required: true,
    autocomplete: 'username',
    spellcheck: 'false',
    placeholder: '00000000-0000-4000-8000-000000000000',
    'aria-describedby': 'cred-help',
  });
  project.value = prev?.project || lastProject || linkedProject();
  const key = h('input', {
    id: 'cred-key',
    type: 'password',
    required: true,
    autocomplete: 'current-password',
    spellcheck: 'false',
    placeholder: 'rts_...',
    'aria-describedby': 'cred-help',
  });
  const onsubmit = (ev: Event): void => {
    ev.preventDefault();
    if (!project.value.trim() || !key.value.trim()) return;
    saveCreds(project.value.trim(), key.value.trim());
    reroute();
  };
  const form = h(
    'form',
    { class: 'creds panel', id: 'credentials', 'aria-labelledby': 'cred-title', onsubmit },
    h('h1', { id: 'cred-title' }, 'Sign in to the dashboard'),
    err ? errorAlert(err) : null,
    h(
      'p',
      { id: 'cred-help', class: 'muted' },
      'The page calls the API from this browser with your credentials. They are kept in this tab only (sessionStorage) and sent as request headers, never in a URL.',
    ),
    h('label', { for: 'cred-project' }, 'Project id'),
    project,
    h('label', { for: 'cred-key' }, 'API key'),
    key,
    h('p', null, h('button', { type: 'submit', class: 'primary' }, 'Open dashboard')),
  );
  setMain(form);
  renderWho();
  (project.value ? key : project).focus();
}
