// The sign-in form: project id and API key, kept in this tab only; shown without credentials and after a 401.
import { creds, saveCreds } from '../credentials';
import { h, setMain } from '../dom';
import { renderWho } from '../header';
import { reroute } from '../navigation';
import { stopPolling } from '../polling';
import { errorAlert, type Problem } from '../widgets';

/** Shows the form, with `err` above it when there is one; `lastProject` prefills the project id after a sign-out. */
export function signInView(err: Problem | null, lastProject = ''): void {
  stopPolling();
  document.title = 'Sign in - rts dashboard';
  const prev = creds();
  const project = h('input', {
    id: 'cred-project',
    name: 'project',
    type: 'text',
    required: true,
    autocomplete: 'username',
    spellcheck: 'false',
    placeholder: '00000000-0000-4000-8000-000000000000',
    'aria-describedby': 'cred-help',
  });
  project.value = prev?.project || lastProject;
  const key = h('input', {
    id: 'cred-key',
    name: 'key',
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
