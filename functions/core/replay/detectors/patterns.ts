// Detection patterns, compiled once at load: instruction-like text, credentials, URLs and e-mail addresses.

/** Instruction-like text an agent should never obey when it comes from a tool. */
export const INJECTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?\b(?:previous|prior|above|earlier|preceding|all|any|your|the)\b[^.\n]{0,30}?\b(?:instructions?|directions?|rules|prompts?|guidelines|guardrails|policies)\b/i,
  /\bdisregard\b[^.\n]{0,40}?\b(?:above|everything|that|this|context|system)\b/i,
  /\b(?:new|updated|real) (?:system )?instructions?\s*:/i,
  /\byou are now\b[^.\n]{0,40}?\b(?:mode|assistant|agent|dan|unrestricted|jailbroken)\b/i,
  /\b(?:reveal|print|show|output)\b[^.\n]{0,30}?\b(?:system prompt|hidden instructions|your instructions)\b/i,
  /(?:^|[\s[(<>"'])(?:SYSTEM|ASSISTANT|DEVELOPER)(?: (?:PROMPT|MESSAGE|NOTICE|OVERRIDE|INSTRUCTIONS?))?\s*:/,
  /(?:^|\n)\s*system\s*:/i,
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
  find: RegExp;
  /** Characters kept in clear when masked. */
  keep: (match: string) => number;
}

const four = (): number => 4;

/** Credentials recognised in what leaves the agent. Global flag: used with matchAll/replace only. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { name: 'aws_access_key', find: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, keep: four },
  {
    name: 'private_key',
    find: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----)?/g,
    keep: (m) => m.indexOf('KEY-----') + 8,
  },
  { name: 'github_token', find: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g, keep: four },
  { name: 'slack_token', find: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, keep: four },
  { name: 'openai_key', find: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, keep: four },
  { name: 'jwt', find: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, keep: four },
];

/** Cheap pre-check: text without any of these cannot match SECRET_PATTERNS. Keep it in step with them. */
export const SECRET_HINT = /AKIA|ASIA|-----BEGIN|gh[pousr]_|github_pat_|xox[abposr]-|sk-|eyJ/;

/** Absolute http(s) URLs: group 1 is the host. */
export const URL_PATTERN = /\bhttps?:\/\/(?:[^\s/@"'<>?#]*@)?([A-Za-z0-9.-]+)/gi;
/** E-mail addresses: group 1 is the domain. */
export const EMAIL_PATTERN = /\b[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b/g;
