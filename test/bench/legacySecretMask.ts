/**
 * The secret mask as it was before the vendored rule set (a hand list of 16 shapes and two named classes), kept
 * unchanged as the baseline the secret benchmark measures today's mask against, in the same run.
 */
import { entropyPerChar } from '../../src/engine/text/entropy';

/** One credential shape. `value` is the capture group to mask (0: the whole match). */
interface SecretRule {
  readonly kind: string;
  readonly pattern: RegExp;
  readonly value?: number;
  /** Extra check on the captured value, for shapes that also match ordinary text. */
  readonly accept?: (value: string) => boolean;
}

/** Values assigned to credential-like names are masked from this length… */
export const ASSIGNED_SECRET_MIN_LENGTH = 16;
/** …when they look random: at least this many bits of entropy per character, letters and digits mixed. */
export const ASSIGNED_SECRET_MIN_ENTROPY = 3;

const PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g;

/** Names that say their value is a credential (matched as a part of the name, any case). */
const CREDENTIAL_WORDS = [
  'api[_-]?key',
  'apikey',
  'secret',
  'token',
  'passphrase',
  'access[_-]?key',
  'private[_-]?key',
  'client[_-]?secret',
  'auth[_-]?key',
  'credential',
  'signature',
];
const NAME_CHARS = '[A-Za-z0-9_.-]*';
const CREDENTIAL_NAME = `${NAME_CHARS}(?:${CREDENTIAL_WORDS.join('|')})${NAME_CHARS}`;

const RULES: readonly SecretRule[] = [
  { kind: 'Anthropic key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'OpenAI key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, accept: hasDigitAndLetter },
  { kind: 'GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { kind: 'GitLab token', pattern: /\bgl(?:pat|ptt|dt|rt|cbt|oas)-[A-Za-z0-9_-]{20,}/g },
  { kind: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'Slack webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/g },
  { kind: 'AWS access key id', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g },
  { kind: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'Stripe key', pattern: /\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{16,}\b/g },
  { kind: 'Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { kind: 'npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'JSON web token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer token', pattern: /\b(?:Bearer|Token)\s+([A-Za-z0-9._~+/-]{16,}=*)/g, value: 1, accept: hasDigitAndLetter },
  { kind: 'password in a URL', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s@/]{3,})@/gi, value: 1 },
  {
    kind: 'password',
    pattern: /\b(?:password|passwd|pwd|pass)\b["']?\s*[:=]\s*["']?([^\s"'`,;]{3,})/gi,
    value: 1,
    // Placeholders, variables and code are not passwords.
    accept: (v) =>
      !/^(\*+|x+|<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|null|none|true|false|undefined|\[masked.*)$/i.test(v) && !/[()]/.test(v),
  },
  {
    kind: 'secret',
    pattern: new RegExp(`\\b${CREDENTIAL_NAME}["']?\\s*[:=]\\s*["']?([A-Za-z0-9+/=_.~-]{${ASSIGNED_SECRET_MIN_LENGTH},})`, 'gi'),
    value: 1,
    accept: looksRandom,
  },
];

/** The text with every credential-looking string replaced by `[masked <kind>]`. */
export function maskSecrets(text: string): string {
  return maskSecretsCounted(text).text;
}

/** As `maskSecrets`, and how many strings were masked. */
export function maskSecretsCounted(text: string): { text: string; masked: number } {
  let masked = 0;
  let out = text.replace(PRIVATE_KEY, () => {
    masked++;
    return '[masked private key]';
  });
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (match: string, ...groups: unknown[]) => {
      const value = rule.value === undefined ? match : groups[rule.value - 1];
      if (typeof value !== 'string' || (rule.accept && !rule.accept(value))) return match;
      masked++;
      const mask = `[masked ${rule.kind}]`;
      if (rule.value === undefined) return mask;
      const at = match.lastIndexOf(value);
      return `${match.slice(0, at)}${mask}${match.slice(at + value.length)}`;
    });
  }
  return { text: out, masked };
}

function hasDigitAndLetter(value: string): boolean {
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

/** Random-looking: letters and digits mixed, and enough entropy per character. */
function looksRandom(value: string): boolean {
  return hasDigitAndLetter(value) && entropyPerChar(value) >= ASSIGNED_SECRET_MIN_ENTROPY;
}
