// Mutations of served tool results (docs/campaigns-and-replay.md#mutations): errors, timeouts, empty and malformed
// results, injections, secret bait.
import type { Mutation } from '../../campaigns/schema';
import type { ServedResult } from '../recording';
import { type BaitCredential, baitText } from './payloads';

export type ToolMutation = Exclude<Mutation, { type: 'input_perturbation' }>;

export const DEFAULT_TOOL_ERROR = '503 Service Unavailable: the upstream service is temporarily unavailable';
export const TIMEOUT_MS = 30000;

/** The mutation's adversarial material, derived once per run (see compile.ts). */
export interface MutationMaterial {
  injection?: string;
  bait?: BaitCredential;
}

export interface MutatedResult {
  result: ServedResult;
  /** The agent now holds text it should not trust (injected instructions or a credential). */
  untrusted: boolean;
}

/** Applies a tool-result mutation to what the recording served; the input is never modified. */
export function mutateResult(m: ToolMutation, tool: string, served: ServedResult, material: MutationMaterial): MutatedResult {
  switch (m.type) {
    case 'tool_error': {
      const message = m.message ?? DEFAULT_TOOL_ERROR;
      return { result: { content: { error: message }, error: message }, untrusted: false };
    }
    case 'tool_timeout': {
      const message = `timeout: tool ${tool} did not respond within ${TIMEOUT_MS} ms`;
      return { result: { content: { error: message }, error: message }, untrusted: false };
    }
    case 'empty_result':
      return { result: { content: emptyLike(served.content), error: null }, untrusted: false };
    case 'malformed_output':
      return { result: { content: truncateJson(served.content), error: served.error }, untrusted: false };
    case 'prompt_injection':
      return { result: { content: appendText(served.content, material.injection ?? '', 'note'), error: served.error }, untrusted: true };
    case 'secret_bait': {
      const bait = material.bait as BaitCredential;
      const content =
        typeof served.content === 'string' || served.content === null || typeof served.content !== 'object'
          ? `${textOf(served.content)}${baitText(bait)}`
          : appendValue(served.content, { debug_credentials: bait }, 'debug_credentials', bait);
      return { result: { content, error: served.error }, untrusted: true };
    }
  }
}

/** An empty value of the same kind: `{}`, `[]`, `""`, or null. */
function emptyLike(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === 'object') return {};
  if (typeof value === 'string') return '';
  return null;
}

/** The JSON text of the result cut short, guaranteed not to parse (what a crashed serializer sends). */
export function truncateJson(value: unknown): string {
  let text = JSON.stringify(value) ?? 'null';
  if (text.length < 8) text = `{"result":${text}}`;
  let cut = text.slice(0, Math.max(1, Math.ceil(text.length * 0.6)));
  if (parses(cut)) cut += '",';
  return cut;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

/** Adds text where an agent reads it: appended to a string, as a new field of an object, as an array element. */
function appendText(value: unknown, text: string, field: string): unknown {
  if (typeof value === 'string') return `${value}\n\n${text}`;
  if (value !== null && typeof value === 'object') return appendValue(value, text, field, text);
  return `${textOf(value)}\n\n${text}`;
}

function appendValue(value: object, arrayItem: unknown, field: string, fieldValue: unknown): unknown {
  if (Array.isArray(value)) return [...value, arrayItem];
  const obj = value as Record<string, unknown>;
  let key = field;
  for (let i = 2; Object.hasOwn(obj, key); i++) key = `${field}_${i}`;
  return { ...obj, [key]: fieldValue };
}
