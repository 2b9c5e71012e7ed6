// The header: the section links, and on the right the signed-in project id and the "Sign out" button.
import { DASH } from './config';
import { creds, forgetKey } from './credentials';
import { byId, clear, h } from './dom';
import { reroute } from './navigation';

/** The header's section links; the current section is marked with aria-current. */
export function renderNav(): void {
  const nav = byId('nav');
  clear(nav);
  const here = location.pathname;
  for (const [path, label] of [
    ['', 'Runs and campaigns'],
    ['/batches', 'CI batches'],
    ['/webhooks', 'Webhooks'],
  ] as const) {
    const href = DASH + path;
    const current = path ? here === href || here.startsWith(`${href}/`) : here === href || here === `${href}/`;
    nav.appendChild(h('a', { href, 'aria-current': current ? 'page' : null }, label));
  }
}

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
