/**
 * Credentials by where they stand rather than by a provider's shape: the classes a maintained rule set of shapes
 * (`secretShapes.ts`) does not cover, each decided by the structure around the value, never by the value alone.
 *
 * - A value assigned to a credential's name (`DB_PASSWORD=…`, `"auth": "…"`, `AccountKey=…;`, `SECRET_KEY = '…'`):
 *   the name's last word says what the value is (`db_password` is a password, `password_hash` is not). A password
 *   is masked whatever it looks like (a weak one is still one); a token, key or secret when it looks random (long,
 *   two kinds of characters or more, enough entropy) and gitleaks' allow lists for such findings do not clear it (a
 *   `primaryKey`, a stop word), and no provider that has a rule of its own is named (its rule judged the value: a
 *   `telegram_token` of the wrong shape is not one). A quoted value is masked to its closing quote. A name that only
 *   mentions a credential (`SECRET_KEY_BASE`) is left to gitleaks' generic rule.
 * - The credentials of an HTTP `Authorization` header, whatever its scheme (`Basic`, `Bearer`, `token`), and a
 *   bearer token standing alone.
 * - A credential on a command line: a long option named as one (`--password X`, `--api-key=X`), the password of a
 *   MySQL client written onto its `-p` (`mysql -pX`: the clients' own convention, where `-p` never means a port).
 * - A password in a URL (`scheme://user:password@host`).
 * - A private key file's secret part: a PEM block, a PuTTY key's private lines, and a PEM key base64-encoded as a
 *   kubeconfig's `client-key-data` or a Kubernetes secret holds it.
 * - A Google OAuth access token (`ya29.`), the one common short-lived token gitleaks has no rule for.
 *
 * Placeholders (`${DB_PASSWORD}`, `<token>`, `{{ .Values.key }}`, a run of one character: `xxxxxx`, `000000`) and
 * code (a call, a variable's path, a command's output in backquotes) are never masked: without a literal there is
 * nothing to hide. Each class runs only where its words are in the text (one scan finds them all).
 */
import { entropyPerChar } from './entropy';
import { KeywordScan } from './keywordScan';
import { clearedAsGenericSecret, namesProviderWithRule } from './secretShapes';
import type { SecretSpan } from './secretSpan';
import { nameWords } from './nameWords';

/** A token, key or secret's value is masked from this length, when it looks random: */
export const RANDOM_MIN_LENGTH = 16;
/** at least this many bits of entropy per character, and two kinds of characters (lower, upper, digits, signs). */
export const RANDOM_MIN_ENTROPY = 3;
/** A run of one character this long makes a value a placeholder (`xxxxxx`, `000000`): random values hardly have one. */
const FILLER_RUN = 6;

/** What a name's words say its value is. */
type NameKind = 'password' | 'token' | 'none';

/** Last words of a name whose value is a password (also as the end of one word: `PGPASSWORD`). */
const PASSWORD_ENDINGS = ['password', 'passwd', 'passphrase'];
/** `pwd` as a word of its own (connection strings' `Pwd=`); `pass` alone names too much else in code (a render pass, a test pass). */
const PASSWORD_WORDS = ['pwd', ...PASSWORD_ENDINGS];
/** Last words of a name whose value is a token, a key or a secret (`secret`, `token` also as a word's end: `authtoken`). */
const TOKEN_ENDINGS = ['secret', 'token', 'apikey'];
const TOKEN_WORDS = ['key', 'auth', 'credential', 'credentials', 'creds', ...TOKEN_ENDINGS];

/** What the name says of its value. */
export function nameKind(name: string): NameKind {
  const words = nameWords(name);
  const last = words[words.length - 1] ?? '';
  if (PASSWORD_WORDS.includes(last) || PASSWORD_ENDINGS.some((e) => last.endsWith(e))) return 'password';
  if (TOKEN_WORDS.includes(last) || TOKEN_ENDINGS.some((e) => last.endsWith(e))) return 'token';
  return 'none';
}

/**
 * A stand-in, not a value: empty, a variable or a template (`${X}`, `$X`, `%X%`, `{{ x }}`, `<x>`, `[x]`, `{x}`), a
 * run of filler (`xxxxxx`, `000000`), a literal word (`null`, `true`). Unquoted, anything that starts as a variable or
 * a template does (`$(cat pw)`, `${A:-b}`).
 */
function isPlaceholder(value: string, quoted: boolean): boolean {
  const v = value.trim();
  return (
    v === '' ||
    (!quoted && /^[$%{<[]/.test(v)) ||
    /^(?:\$\{.*\}|\$[A-Za-z_]\w*|\$\(.*\)|%\w+%|\{\{.*\}\}|\$\{\{.*\}\}|<[^>]*>|\[[^\]]*\]|\{[^}]*\})$/.test(v) ||
    new RegExp(`(.)\\1{${FILLER_RUN - 1}}`).test(v) ||
    /^(?:(.)\1*|null|nil|none|true|false|undefined)$/i.test(v)
  );
}

/** Code rather than a literal: a call, an index or a structure (`a[0]`, `ENC[…]`), a path of names (`os.environ`). */
function isCode(value: string): boolean {
  return /[()[\]{}]/.test(value) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value);
}

function hasDigitAndLetter(value: string): boolean {
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

/** Random-looking: long, at least two kinds of characters, and enough entropy per character. */
export function looksRandom(value: string): boolean {
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((k) => k.test(value)).length;
  return value.length >= RANDOM_MIN_LENGTH && kinds >= 2 && entropyPerChar(value) >= RANDOM_MIN_ENTROPY;
}

/**
 * Whether the value assigned to a name of this kind is masked. A quoted value, or one of a shell or `.env` line
 * (`NAME=value`, no space around `=`), is a literal for sure; an unquoted word of letters after `name: ` is as likely
 * a type as a password (`password: string`).
 */
function masksValue(kind: NameKind, value: string, literal: boolean, match: string, line: string): boolean {
  if (kind === 'none' || isPlaceholder(value, literal) || (!literal && isCode(value))) return false;
  if (kind === 'password') return value.length >= 3 && (literal || /[^A-Za-z]/.test(value));
  // A value with spaces is prose or code, not a token; one of many signs was generated (a Django key), and holds no
  // word by chance that would clear it.
  if (/\s/.test(value) || !looksRandom(value) || namesProviderWithRule(match)) return false;
  return !clearedAsGenericSecret({ secret: value, match, line }, new Set(value.replace(/[\w.~/+=-]/g, '')).size < 2);
}

/**
 * `name = value` in its usual forms: `NAME=value`, `name: value`, `"name": "value"`, `name := "value"`, `$name = '…'`,
 * `Key=value;` in a connection string. Group 2 is the name; the value is group 3 or 4 (quoted) or 5 (bare); a value
 * in backquotes is a command's output, not a literal.
 */
const ASSIGNMENT =
  /(?<![\w$.-])(["']?)([A-Za-z_$@][\w.$@-]{0,80})\1[ \t]{0,3}(?::=|=>|\?=|[:=])[ \t]{0,3}(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s"'`,;<>]+))/g;

/** A long command-line option named as a credential, and its value (after `=` or a space). */
const OPTION = /(?<![\w-])--([A-Za-z][\w-]{1,60})(?:=|[ \t]+)(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'`;|&]+))/g;

/** The password a MySQL-family client takes written onto its `-p` (a space after `-p` makes it ask instead). */
const MYSQL_PASSWORD =
  /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mariadb(?:-dump|-admin)?)\b[^\n|;&]*?[ \t]-p(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'`;|&]+))/g;

/** An HTTP Authorization header's credentials, after its scheme. */
const AUTHORIZATION = /\b(?:Proxy-)?Authorization["']?[ \t]*[:=][ \t]*["']?(?:[A-Za-z][\w-]*[ \t]+(?=\S))?([^\s"'`]{6,})/gi;

/** A bearer token standing alone (an Authorization header's is found above). */
const BEARER = /\b(?:Bearer|Token)[ \t]+([A-Za-z0-9._~+/-]{16,}=*)/g;

const URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s@/]{3,})@/gi;

/** A PEM private key to its end line, or to the end of a text cut short; a body under 64 characters is an example, not a key. */
const PEM_PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----[\s\S]{64,}?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g;
/** A PuTTY key file's private lines, counted by its `Private-Lines:` header, and the MAC after them. */
const PUTTY_PRIVATE_LINES = /^Private-Lines:[ \t]*\d+\r?\n(?:[A-Za-z0-9+/=]+\r?\n)+(?:Private-(?:MAC|Hash):[ \t]*[0-9A-Fa-f]+)?/gm;
/** `-----BEGIN` base64-encoded: a PEM file stored as base64 (kubeconfig, Kubernetes secrets, CI variables). */
const BASE64_PEM = /LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2}/g;
const GOOGLE_OAUTH_TOKEN = /\bya29\.[0-9A-Za-z_-]{20,}/g;

/** One class: its pattern, the words that must be in the text (lower-case) for it to run, and how a match is masked. */
interface CredentialClass {
  readonly pattern: RegExp;
  readonly words: readonly string[];
  readonly spanOf: (m: RegExpMatchArray, text: string) => SecretSpan | undefined;
}

const CREDENTIAL_NAME_WORDS = [...PASSWORD_WORDS, ...TOKEN_WORDS];

const CLASSES: readonly CredentialClass[] = [
  { pattern: PEM_PRIVATE_KEY, words: ['private key'], spanOf: (m) => whole(m, 'private key') },
  { pattern: PUTTY_PRIVATE_LINES, words: ['private-lines'], spanOf: (m) => whole(m, 'private key') },
  { pattern: BASE64_PEM, words: ['ls0tls1crudjti'], spanOf: (m) => (decodesToPrivateKey(m[0]) ? whole(m, 'private key') : undefined) },
  { pattern: GOOGLE_OAUTH_TOKEN, words: ['ya29.'], spanOf: (m) => whole(m, 'Google OAuth token') },
  {
    pattern: ASSIGNMENT,
    words: CREDENTIAL_NAME_WORDS,
    spanOf: (m, text) => {
      const quoted = m[3] ?? m[4];
      const value = quoted ?? m[5] ?? '';
      const kind = nameKind(m[2]);
      const literal = quoted !== undefined || /^[A-Z][A-Z0-9_]*=[^\s=]/.test(m[0]);
      return masksValue(kind, value, literal, m[0], lineOf(text, m.index ?? 0)) ? valueSpan(m, value, kindWord(kind)) : undefined;
    },
  },
  {
    pattern: OPTION,
    words: CREDENTIAL_NAME_WORDS,
    spanOf: (m, text) => {
      const quoted = m[2] ?? m[3];
      const value = quoted ?? m[4] ?? '';
      const kind = nameKind(m[1]);
      if (value.startsWith('-') || !masksValue(kind, value, quoted !== undefined, m[0], lineOf(text, m.index ?? 0))) return undefined;
      return valueSpan(m, value, kindWord(kind));
    },
  },
  {
    pattern: MYSQL_PASSWORD,
    words: ['mysql', 'mariadb'],
    spanOf: (m) => {
      const value = m[1] ?? m[2] ?? m[3] ?? '';
      return isPlaceholder(value, m[3] === undefined) ? undefined : valueSpan(m, value, 'password');
    },
  },
  {
    pattern: AUTHORIZATION,
    words: ['authorization'],
    spanOf: (m) => (isPlaceholder(m[1], false) ? undefined : valueSpan(m, m[1], 'authorization')),
  },
  {
    pattern: BEARER,
    words: ['bearer', 'token'],
    spanOf: (m) => (hasDigitAndLetter(m[1]) ? valueSpan(m, m[1], 'bearer token') : undefined),
  },
  {
    pattern: URL_PASSWORD,
    words: ['://'],
    spanOf: (m) => (isPlaceholder(m[1], false) ? undefined : valueSpan(m, m[1], 'password in a URL')),
  },
];

const CLASS_WORDS = [...new Set(CLASSES.flatMap((c) => c.words))];
let wordScan: KeywordScan | undefined;

/** The spans of `text` that a class finds a credential in. */
export function classSecretSpans(text: string): SecretSpan[] {
  wordScan ??= new KeywordScan(CLASS_WORDS);
  const present = new Set([...wordScan.found(text)].map((i) => CLASS_WORDS[i]));
  const spans: SecretSpan[] = [];
  for (const c of CLASSES) {
    if (!c.words.some((w) => present.has(w))) continue;
    for (const m of text.matchAll(c.pattern)) {
      const span = c.spanOf(m, text);
      if (span) spans.push(span);
    }
  }
  return spans;
}

function kindWord(kind: NameKind): string {
  return kind === 'password' ? 'password' : 'secret';
}

function whole(m: RegExpMatchArray, kind: string): SecretSpan {
  const start = m.index ?? 0;
  return { start, end: start + m[0].length, kind };
}

function valueSpan(m: RegExpMatchArray, value: string, kind: string): SecretSpan {
  const start = valueStart(m, value);
  return { start, end: start + value.length, kind };
}

/** The line a match starts on, whole. */
function lineOf(text: string, at: number): string {
  const end = text.indexOf('\n', at);
  return text.slice(text.lastIndexOf('\n', at - 1) + 1, end === -1 ? text.length : end);
}

/** Where a group's value starts: its last occurrence in the match (every pattern here ends with its value). */
function valueStart(m: RegExpMatchArray, value: string): number {
  return (m.index ?? 0) + m[0].lastIndexOf(value);
}

function decodesToPrivateKey(base64: string): boolean {
  return /PRIVATE KEY/.test(Buffer.from(base64, 'base64').toString('latin1'));
}
