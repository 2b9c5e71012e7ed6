// The rate-limit headers providers send with their answers (docs/campaigns-and-replay.md#limits-and-429), read so a
// key slows down before the 429: OpenAI's `x-ratelimit-remaining-*` / `x-ratelimit-reset-*`, Anthropic's
// `anthropic-ratelimit-*-remaining` / `-reset`, and the IETF `RateLimit` field (`remaining=0, reset=30` or
// `"default";r=0;t=30`). A spent quota (remaining 0) pauses the key until its reset.

const lower = (headers: Record<string, string>): Map<string, string> => new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** An OpenAI reset duration (`1s`, `6m0s`, `20ms`, `1.5s`, `1h2m`) in ms, or null. */
export function durationMs(text: string): number | null {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.ceil(Number(t) * 1000);
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t) return null;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  return Math.ceil(parts.reduce((ms, p) => ms + Number(p[1]) * unit[p[2]], 0));
}

/** How long the answer's headers say to send nothing more (a spent quota until its reset), ms; null when they do not. */
export function rateLimitPauseMs(headers: Record<string, string>, nowMs: number): number | null {
  const h = lower(headers);
  let pause: number | null = null;
  const spent = (remaining: string | undefined, resetMs: number | null) => {
    if (remaining === undefined || resetMs === null || Number(remaining.trim()) !== 0) return;
    pause = Math.max(pause ?? 0, resetMs);
  };
  for (const kind of ['requests', 'tokens']) {
    const reset = h.get(`x-ratelimit-reset-${kind}`);
    spent(h.get(`x-ratelimit-remaining-${kind}`), reset === undefined ? null : durationMs(reset));
  }
  for (const kind of ['requests', 'tokens', 'input-tokens', 'output-tokens']) {
    const reset = h.get(`anthropic-ratelimit-${kind}-reset`);
    const at = reset === undefined ? NaN : Date.parse(reset);
    spent(h.get(`anthropic-ratelimit-${kind}-remaining`), Number.isNaN(at) ? null : Math.max(0, at - nowMs));
  }
  const field = h.get('ratelimit');
  if (field !== undefined) {
    const remaining = /(?:^|[;,\s])(?:remaining|r)=(\d+)/.exec(field)?.[1];
    const reset = /(?:^|[;,\s])(?:reset|t)=(\d+)/.exec(field)?.[1];
    spent(remaining, reset === undefined ? null : Number(reset) * 1000);
  }
  return pause;
}
