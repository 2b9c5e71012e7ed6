// Detection patterns, compiled once at load: instruction-like text, credentials, URLs and e-mail addresses.
//
// They run on text third parties choose, so each must cost O(length) on a backtracking engine. The rules that keep
// them so: a quantifier is bounded (`{0,40}`), or the run it reads belongs to one starting position only (it follows
// a literal such as `SYSTEM` or `<`, or the pattern is anchored after a newline and cannot cross the next one).
// Shapes that break these rules are scanned from code in scan.ts. test/unit/core/replay/detectors/linear-scan.test.ts
// feeds every pattern its worst inputs.
import { emailAddresses, jwtTokens, privateKeyBlocks, regexMatches, type EmailFound, type Found } from './scan';

/** Instruction-like text an agent should never obey when it comes from a tool. */
export const INJECTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?\b(?:previous|prior|above|earlier|preceding|all|any|your|the)\b[^.\n]{0,30}?\b(?:instructions?|directions?|rules|prompts?|guidelines|guardrails|policies)\b/i,
  /\bdisregard\b[^.\n]{0,40}?\b(?:above|everything|that|this|context|system)\b/i,
  /\b(?:new|updated|real) (?:system )?instructions?\s*:/i,
  /\byou are now\b[^.\n]{0,40}?\b(?:mode|assistant|agent|dan|unrestricted|jailbroken)\b/i,
  /\b(?:reveal|print|show|output)\b[^.\n]{0,30}?\b(?:system prompt|hidden instructions|your instructions)\b/i,
  /(?:^|[\s[(<>"'])(?:SYSTEM|ASSISTANT|DEVELOPER)(?: (?:PROMPT|MESSAGE|NOTICE|OVERRIDE|INSTRUCTIONS?))?\s*:/,
  // Only the whitespace after the last newline: `\s*` here would let every newline of a long run start a scan to its end.
  /(?:^|\n)[^\S\n]*system\s*:/i,
  /<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?system>/i,
  // Tool output that addresses the model itself ("a note to the assistant", "this message is for the AI agent"): the
  // opening of the "important instructions" and tool-knowledge families. A bare "agent" or "model" is left out on
  // purpose: "note to the agent" is everyday support-ticket text, and a finding marks what follows as untrusted.
  /\b(?:note|message|notice|memo|reminder|instructions?)\s+(?:is\s+)?(?:for|to)\s+(?:the\s+|any\s+)?(?:ai\s+(?:assistant|agent|model)|assistant|ai|llm|language model)s?\b/i,
  /<\/?\s*(?:important[\w-]*|information|instructions?)\s*>/i,
];

/**
 * Cheap pre-check: text without any of these words cannot match INJECTION_PATTERNS, so most tool results skip them.
 * Keep it in step with the patterns above.
 */
export const INJECTION_HINT =
  /ignore|disregard|forget|override|bypass|instruction|you are now|system|assistant|developer|\bai\b|llm|language model|<\/?\s*(?:important|information)|<\||\[\/?inst\]|<<\/?sys>>/i;

/** Unicode tag characters (U+E0000-U+E007F): invisible text that models still read. */
export const HIDDEN_TAGS = /[\u{E0000}-\u{E007F}]/u;
export const HIDDEN_TAG_RUN = /[\u{E0000}-\u{E007F}]+/gu;
/** The tag characters that mirror printable ASCII (U+E0020-U+E007E). */
export const ASCII_TAG = /[\u{E0020}-\u{E007E}]/gu;

/** The canary tokens this service plants in mutations. */
export const CANARY_PATTERN = /RTS-CANARY-[0-9a-f]{16}/;

export interface SecretPattern {
  name: string;
  /** Every match, left to right and not overlapping, as `matchAll` with the credential's regex would give them. */
  matches: (text: string) => Iterable<Found>;
  /** Characters kept in clear when masked. */
  keep: (match: string) => number;
}

const four = (): number => 4;
const byRegex =
  (re: RegExp) =>
  (text: string): Iterable<Found> =>
    regexMatches(re, text);

/** Credentials recognised in what leaves the agent. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { name: 'aws_access_key', matches: byRegex(/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/), keep: four },
  // Header to footer: `-----BEGIN ... PRIVATE KEY-----(?:[\s\S]*?-----END ... PRIVATE KEY-----)?`.
  { name: 'private_key', matches: privateKeyBlocks, keep: (m) => m.indexOf('KEY-----') + 8 },
  { name: 'github_token', matches: byRegex(/\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/), keep: four },
  { name: 'slack_token', matches: byRegex(/\bxox[abposr]-[A-Za-z0-9-]{10,}/), keep: four },
  { name: 'openai_key', matches: byRegex(/\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/), keep: four },
  // `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`.
  { name: 'jwt', matches: jwtTokens, keep: four },
];

/** Cheap pre-check: text without any of these cannot match SECRET_PATTERNS. Keep it in step with them. */
export const SECRET_HINT = /AKIA|ASIA|-----BEGIN|gh[pousr]_|github_pat_|xox[abposr]-|sk-|eyJ/;

/** Absolute http(s) URLs: group 1 is the host. The userinfo run stops at `/`, so it belongs to one `http://`. */
export const URL_PATTERN = /\bhttps?:\/\/(?:[^\s/@"'<>?#]*@)?([A-Za-z0-9.-]+)/gi;
/** E-mail addresses with their domain (found from the `@` side, see scan.ts). */
export const findEmails: (text: string) => Iterable<EmailFound> = emailAddresses;
