// DOM building: every piece of data becomes a text node or an attribute value, never HTML.

/** Anything `append` turns into nodes: nodes as they are, primitives as text; null, undefined and false add nothing. */
export type Child = Node | string | number | boolean | null | undefined | readonly Child[];

type Listener = (ev: Event) => void;
/** Attributes of `h`: `class`, `text` (textContent), `onclick`/`onsubmit` listeners, else attributes (true = present). */
export type Props = Record<string, string | number | boolean | null | undefined | Listener>;

/** Creates `<tag>` with `props` and `children`; null, undefined and false props are left out. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    for (const k of Object.keys(props)) {
      const v = props[k];
      if (v === null || v === undefined || v === false) continue;
      if (typeof v === 'function') {
        if (k === 'onclick' || k === 'onsubmit') el.addEventListener(k.slice(2), v);
      } else if (k === 'class') el.className = String(v);
      else if (k === 'text') el.textContent = String(v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const child of children) append(el, child);
  return el;
}

/** Appends `child` to `el`: arrays flattened, nodes as they are, everything else as a text node. */
export function append(el: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child as readonly Child[]) append(el, c);
    return;
  }
  if (child instanceof Node) {
    el.appendChild(child);
    return;
  }
  el.appendChild(document.createTextNode(String(child)));
}

/** Removes every child of `el`. */
export function clear(el: Node): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** The element with `id`, which the page's HTML always has. */
export function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the dashboard page has no #${id}`);
  return el;
}

/** Replaces the content of `<main>`. */
export function setMain(...nodes: Child[]): void {
  const main = byId('main');
  clear(main);
  for (const n of nodes) append(main, n);
}

/** Re-renders `<main>` keeping the focused control (by id), so polling does not steal the keyboard position. */
export function renderKeepingFocus(nodes: Child[]): void {
  const active = document.activeElement?.id;
  setMain(...nodes);
  if (active) document.getElementById(active)?.focus();
}
