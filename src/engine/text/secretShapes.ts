/**
 * Credentials by their provider's shape, from gitleaks' maintained rule set (`gitleaksRules.ts`, vendored, MIT):
 * a GitHub token starts `ghp_`, a Slack webhook is a URL of its own, a rule per provider (over 200). A rule is
 * judged as gitleaks judges it: its keywords must be in the text before its pattern runs (which keeps the cost of two
 * hundred rules near that of a few), the secret is its group (the first non-empty one unless it names one), it must
 * pass the rule's entropy, and neither the rule's allow lists nor the global one may clear it.
 */
import { GITLEAKS_GLOBAL_ALLOWLIST, GITLEAKS_RULES } from './gitleaksRules';
import { entropyPerChar } from './entropy';
import { KeywordScan } from './keywordScan';
import type { SecretSpan } from './secretSpan';

/** An allow list: any (or, with `all`, every) of its checks clears a finding. */
export interface VendoredAllowlist {
  /** What the regexes look at: the secret (default), the whole match, or the match's line. */
  readonly target?: 'match' | 'line';
  readonly all?: boolean;
  readonly regexes?: readonly string[];
  /** Lower-case words the secret may not contain. */
  readonly stopwords?: readonly string[];
}

/** One rule, its pattern in JavaScript's syntax (used with the `g` flag only). */
export interface VendoredRule {
  readonly id: string;
  readonly pattern: string;
  readonly secretGroup?: number;
  /** The secret's entropy must be above this (bits per character). */
  readonly entropy?: number;
  /** Lower-case words of which one must be in the text for the rule to run; none: it always runs. */
  readonly keywords: readonly string[];
  readonly allowlists?: readonly VendoredAllowlist[];
}

interface CompiledAllowlist {
  readonly target?: 'match' | 'line';
  readonly all: boolean;
  readonly regex?: RegExp;
  /** Its stop words, found in one pass (gitleaks' generic rule has over a thousand). */
  readonly stopwords?: KeywordScan;
}

interface CompiledRule {
  readonly rule: VendoredRule;
  readonly pattern: RegExp;
  readonly allowlists: readonly CompiledAllowlist[];
}

interface CompiledRules {
  readonly rules: readonly CompiledRule[];
  readonly global: CompiledAllowlist;
  readonly scan: KeywordScan;
  /** Per keyword (its index in the scan), the rules it lets run. */
  readonly rulesOf: readonly (readonly number[])[];
  /** Rules without keywords: they always run. */
  readonly always: readonly number[];
}

/** Compiled on first use: activation never pays for two hundred patterns. */
let compiled: CompiledRules | undefined;

function rules(): CompiledRules {
  if (compiled) return compiled;
  const keywords = [...new Set(GITLEAKS_RULES.flatMap((r: VendoredRule) => r.keywords))];
  const rulesOf = keywords.map((k) => GITLEAKS_RULES.flatMap((r: VendoredRule, i: number) => (r.keywords.includes(k) ? [i] : [])));
  compiled = {
    rules: GITLEAKS_RULES.map((rule: VendoredRule) => ({
      rule,
      pattern: new RegExp(rule.pattern, 'g'),
      allowlists: (rule.allowlists ?? []).map(compileAllowlist),
    })),
    global: compileAllowlist(GITLEAKS_GLOBAL_ALLOWLIST),
    scan: new KeywordScan(keywords),
    rulesOf,
    always: GITLEAKS_RULES.flatMap((r: VendoredRule, i: number) => (r.keywords.length === 0 ? [i] : [])),
  };
  return compiled;
}

function compileAllowlist(a: VendoredAllowlist): CompiledAllowlist {
  const regexes = a.regexes ?? [];
  return {
    ...(a.target ? { target: a.target } : {}),
    all: a.all === true,
    ...(regexes.length > 0 ? { regex: new RegExp(regexes.map((r) => `(?:${r})`).join('|')) } : {}),
    ...(a.stopwords && a.stopwords.length > 0 ? { stopwords: new KeywordScan(a.stopwords) } : {}),
  };
}

/** The spans of `text` that a vendored rule finds a secret in. */
export function providerSecretSpans(text: string): SecretSpan[] {
  const { rules: all, global, scan, rulesOf, always } = rules();
  const running = new Set(always);
  for (const k of scan.found(text)) for (const r of rulesOf[k]) running.add(r);
  const spans: SecretSpan[] = [];
  // In gitleaks' order, so that where two rules find the same secret the first names it.
  for (const index of [...running].sort((a, b) => a - b)) {
    const compiledRule = all[index];
    const { rule, pattern } = compiledRule;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (m[0] === '') {
        pattern.lastIndex++;
        continue;
      }
      const span = secretOf(m, rule);
      if (!span) continue;
      const secret = text.slice(span.start, span.end);
      if (rule.entropy !== undefined && entropyPerChar(secret) <= rule.entropy) continue;
      const finding = { secret, match: m[0], line: lineAround(text, m.index, m.index + m[0].length) };
      if (cleared(finding, global) || compiledRule.allowlists.some((a) => cleared(finding, a))) continue;
      spans.push({
        start: span.start,
        end: span.end,
        kind: rule.id.replace(/-/g, ' '),
        ...(rule.id === GENERIC_RULE_ID ? { byName: true } : {}),
      });
    }
  }
  return spans;
}

/** The rule whose allow lists judge a value found by its name rather than its shape (`key = value`). */
const GENERIC_RULE_ID = 'generic-api-key';

/**
 * True when gitleaks' allow lists for a generic finding clear this one: the global list, and the generic rule's (its
 * stop words, names such as `primaryKey` whose value is no secret). The classes that find a value by its name use it;
 * without `stopwords` a value quoted in a credential's place is not cleared for holding a word (`django-insecure-…`).
 */
export function clearedAsGenericSecret(finding: { secret: string; match: string; line: string }, stopwords = true): boolean {
  const { rules: all, global } = rules();
  const generic = all.find((r) => r.rule.id === GENERIC_RULE_ID);
  const lists = [global, ...(generic?.allowlists ?? [])].map((a) => (stopwords ? a : { ...a, stopwords: undefined }));
  return lists.some((a) => cleared(finding, a));
}

/** A keyword this long names a provider or its prefix (`telegr`, `sk_live`); shorter ones (`sk`, `ey`) are fragments. */
const PROVIDER_KEYWORD_MIN_LENGTH = 5;
let providerWords: KeywordScan | undefined;

/**
 * True when the text names a provider that has a rule of its own (a keyword of five characters or more of any rule
 * but the generic one): that rule has run on it, and its silence means the value is not that provider's credential
 * (a token of the wrong length). The classes leave such a value to it.
 */
export function namesProviderWithRule(text: string): boolean {
  providerWords ??= new KeywordScan([
    ...new Set(
      GITLEAKS_RULES.filter((r: VendoredRule) => r.id !== GENERIC_RULE_ID).flatMap((r: VendoredRule) =>
        r.keywords.filter((k) => k.length >= PROVIDER_KEYWORD_MIN_LENGTH),
      ),
    ),
  ]);
  return providerWords.any(text);
}

/** Where the rule's secret is in the match: its group, or the first non-empty group, or the whole match. */
function secretOf(m: RegExpExecArray, rule: VendoredRule): { start: number; end: number } | undefined {
  // The groups' places are found by searching the match for their text: JavaScript gives no group offsets without
  // the `d` flag, which costs on every match; the last occurrence is the group's in every vendored pattern's shape.
  const group = rule.secretGroup ?? m.slice(1).findIndex((g) => g !== undefined && g !== '') + 1;
  if (group === 0) return { start: m.index, end: m.index + m[0].length };
  const value = m[group];
  if (value === undefined || value === '') return undefined;
  const at = m[0].lastIndexOf(value);
  return { start: m.index + at, end: m.index + at + value.length };
}

function cleared(finding: { secret: string; match: string; line: string }, a: CompiledAllowlist): boolean {
  const target = a.target === 'match' ? finding.match : a.target === 'line' ? finding.line : finding.secret;
  const byRegex = a.regex !== undefined && a.regex.test(target);
  const byWord = a.stopwords !== undefined && a.stopwords.any(finding.secret);
  if (!a.all) return byRegex || byWord;
  return (a.regex === undefined || byRegex) && (a.stopwords === undefined || byWord);
}

/** The lines a match spans, whole. */
function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? text.length : to);
}
