// The pass-rate interval drawn as a bar: SVG built with DOM calls (attributes only, no style attribute, so the CSP holds).
import { h } from './dom';
import { pct } from './format';
import type { PassRateInterval } from './types';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Width of the bar's coordinate system; the SVG stretches it to the panel's width. */
const W = 1000;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const k of Object.keys(attrs)) el.setAttribute(k, String(attrs[k]));
  return el;
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function vline(x: number, cls: string): SVGLineElement {
  const at = clamp01(x) * W;
  return svg('line', { x1: at, x2: at, y1: 0, y2: 24, class: cls, 'vector-effect': 'non-scaling-stroke' });
}

/**
 * The interval `low..high` over a 0-100 % track, the point estimate as a dark tick and, when given, the
 * `min_pass_rate_lower_bound` threshold as a dashed tick; the same figures as text below, for every reader.
 */
export function intervalBar(iv: PassRateInterval, point: number | null | undefined, threshold?: number): HTMLElement {
  const low = clamp01(iv.low);
  const high = clamp01(Math.max(iv.low, iv.high));
  const confidence = typeof iv.confidence === 'number' ? `${Math.round(iv.confidence * 100)}%` : '95%';
  const method = iv.method === 'wilson' || !iv.method ? 'Wilson' : iv.method;
  const label = `${confidence} ${method} interval of the pass rate: ${pct(low)} to ${pct(high)}${typeof point === 'number' ? `, point estimate ${pct(point)}` : ''}`;
  const bar = svg('svg', { viewBox: `0 0 ${W} 24`, preserveAspectRatio: 'none', class: 'interval-bar', role: 'img', 'aria-label': label });
  bar.appendChild(svg('rect', { x: 0, y: 6, width: W, height: 12, class: 'iv-track' }));
  bar.appendChild(svg('rect', { x: low * W, y: 6, width: Math.max((high - low) * W, 2), height: 12, class: 'iv-range' }));
  if (typeof threshold === 'number') bar.appendChild(vline(threshold, 'iv-threshold'));
  if (typeof point === 'number') bar.appendChild(vline(point, 'iv-point'));
  return h(
    'figure',
    { class: 'interval', id: 'pass-rate-interval', 'data-low': String(iv.low), 'data-high': String(iv.high) },
    h('figcaption', null, `Pass rate, ${confidence} ${method} interval`),
    h('div', { class: 'iv-scale' }, h('span', null, '0%'), bar, h('span', null, '100%')),
    h(
      'p',
      { class: 'iv-text' },
      h('span', { class: 'iv-low' }, pct(low)),
      ' .. ',
      h('span', { class: 'iv-high' }, pct(high)),
      typeof point === 'number' ? [' (point estimate ', h('strong', { class: 'iv-pointval' }, pct(point)), ')'] : null,
      typeof threshold === 'number' ? [`; the lower bound must reach ${pct(threshold)}`] : null,
    ),
  );
}
