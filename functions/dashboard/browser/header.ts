// The header's right side: the signed-in project id and the "Sign out" button.
import { creds, forgetKey } from './credentials';
import { byId, clear, h } from './dom';
import { reroute } from './navigation';

export function renderWho(): void {
  const who = byId('who');
  clear(who);
  const c = creds();
  if (!c) return;
  who.appendChild(h('span', null, 'Project ', h('span', { class: 'mono' }, c.project)));
  who.appendChild(
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          forgetKey();
          reroute();
        },
      },
      'Sign out',
    ),
  );
}
