// An attempt's transcript on the run page: messages, tool calls, served tool results (denials highlighted), policy decisions.
import { h } from '../dom';
import { asText, badgeKind, compact, num } from '../format';
import type { AttemptDetail, TranscriptEntry } from '../types';
import { badge } from '../widgets';

function toolResult(e: TranscriptEntry): HTMLLIElement {
  const served = e.served || 'recorded';
  const cls = `tool${served === 'denied' ? ' denied' : served === 'unrecorded' ? ' unrecorded' : ''}`;
  return h(
    'li',
    { class: cls },
    h(
      'div',
      { class: 'entry-head' },
      'Tool result',
      h('span', { class: 'mono' }, e.tool),
      badge(served === 'denied' ? 'denied by policy' : served, badgeKind(served)),
      e.mutation_id ? badge(`mutation ${e.mutation_id}`, 'warn') : null,
      h('span', { class: 'muted' }, `step ${num(e.step)} - call ${e.tool_call_id || '-'}`),
    ),
    h('div', null, h('span', { class: 'muted' }, 'arguments '), h('code', null, compact(e.arguments))),
    e.error ? h('pre', { class: 'error' }, `error: ${e.error}`) : null,
    e.result !== undefined && e.result !== null ? h('pre', null, asText(e.result)) : null,
  );
}

function message(e: TranscriptEntry): HTMLLIElement {
  const role = e.role || 'message';
  return h(
    'li',
    { class: `role-${role}` },
    h('div', { class: 'entry-head' }, role.charAt(0).toUpperCase() + role.slice(1)),
    e.content !== null && e.content !== undefined ? h('pre', null, asText(e.content)) : null,
    e.tool_calls?.length
      ? h(
          'ul',
          { class: 'calls' },
          e.tool_calls.map((c) =>
            h(
              'li',
              null,
              'calls ',
              h('code', null, c.name),
              ' ',
              h('code', null, compact(c.arguments)),
              c.id ? h('span', { class: 'muted' }, ` (${c.id})`) : null,
            ),
          ),
        )
      : null,
    e.notes?.length ? h('p', { class: 'muted' }, `Notes: ${e.notes.join('; ')}`) : null,
  );
}

function transcriptEntry(e: TranscriptEntry): HTMLLIElement {
  return e.type === 'tool_result' ? toolResult(e) : message(e);
}

/** The transcript panel of one attempt; a loading note until its details have arrived. */
export function transcriptBlock(detail: AttemptDetail | undefined): HTMLElement {
  if (!detail) return h('p', { class: 'muted' }, 'Loading the transcript...');
  const flagged = (detail.policy_events || []).filter((p) => p.decision !== 'allow');
  return h(
    'div',
    null,
    h('h3', null, `Transcript of attempt ${detail.attempt}`),
    h('ol', { class: 'transcript' }, (detail.transcript || []).map(transcriptEntry)),
    detail.output !== null && detail.output !== undefined ? [h('h3', null, 'Final output'), h('pre', null, asText(detail.output))] : null,
    flagged.length
      ? [
          h('h3', null, 'Policy decisions'),
          h(
            'ul',
            { class: 'checks' },
            flagged.map((p) =>
              h(
                'li',
                null,
                badge(p.decision),
                ' ',
                h('span', { class: 'mono' }, p.policy_id),
                ' on ',
                h('code', null, p.tool),
                p.reason ? `: ${p.reason}` : '',
              ),
            ),
          ),
        ]
      : null,
  );
}
