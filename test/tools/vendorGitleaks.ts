/**
 * Writes `src/engine/text/gitleaksRules.ts` from gitleaks' rule file (vendored as `test/fixtures/gitleaks/gitleaks.toml`):
 *
 *   npx tsc -p . --outDir out && node out/test/tools/vendorGitleaks.js
 *
 * Each rule keeps what gitleaks judges a finding by: its pattern (translated from Go's syntax, `goRegex.ts`), the
 * group that holds the secret, the entropy the secret must pass, the keywords that must be in the text before the
 * pattern runs, and the allow lists that clear a finding. What only applies to files is left out, since ctx masks text
 * that has no path: a rule that matches only in named files, and an allow list that needs a path (or a commit).
 * `gitleaksRules.test.ts` checks that the file is what this writes, so the rules are never edited by hand.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { goRegexToJs } from './goRegex';

const ROOT = path.resolve(__dirname, '..', '..', '..');
export const TOML_PATH = path.join(ROOT, 'test', 'fixtures', 'gitleaks', 'gitleaks.toml');
export const RULES_PATH = path.join(ROOT, 'src', 'engine', 'text', 'gitleaksRules.ts');
const LICENSE_PATH = path.join(ROOT, 'test', 'fixtures', 'gitleaks', 'LICENSE');
const SOURCE_PATH = path.join(ROOT, 'test', 'fixtures', 'gitleaks', 'SOURCE');

interface TomlAllowlist {
  readonly condition?: string;
  readonly regexTarget?: string;
  readonly regexes?: readonly string[];
  readonly stopwords?: readonly string[];
  readonly paths?: readonly string[];
  readonly commits?: readonly string[];
}

interface TomlRule {
  readonly id: string;
  readonly regex?: string;
  readonly path?: string;
  readonly secretGroup?: number;
  readonly entropy?: number;
  readonly keywords?: readonly string[];
  readonly allowlists?: readonly TomlAllowlist[];
}

/** The TypeScript module's text for the rule file's text. */
export async function vendoredRulesModule(tomlText: string, licence: string, source: string): Promise<string> {
  // smol-toml is an ES module only: loaded as one.
  const { parse } = await import('smol-toml');
  const config = parse(tomlText) as unknown as { rules: TomlRule[]; allowlist: TomlAllowlist };
  const rules = config.rules.filter((r) => r.regex !== undefined && r.path === undefined).map(rule);
  const global = allowlist(config.allowlist);
  const licenceComment = licence
    .trim()
    .split('\n')
    .map((l) => ` * ${l}`.trimEnd())
    .join('\n');
  return `/*!
 * Secret rules of gitleaks: ${source.trim()},
 * translated to JavaScript patterns by test/tools/vendorGitleaks.ts (do not edit: run it again). gitleaks' licence:
 *
${licenceComment}
 */
/* eslint-disable max-len -- generated: a rule's pattern is one string */
import type { VendoredAllowlist, VendoredRule } from './secretShapes';

/** What clears a finding of any rule. */
export const GITLEAKS_GLOBAL_ALLOWLIST: VendoredAllowlist = ${JSON.stringify(global)};

/** The rules, in gitleaks' order. */
export const GITLEAKS_RULES: readonly VendoredRule[] = ${JSON.stringify(rules, null, 1)};
`;
}

function rule(r: TomlRule): Record<string, unknown> {
  const allowlists = (r.allowlists ?? []).map(allowlist).filter((a): a is Record<string, unknown> => a !== undefined);
  return {
    id: r.id,
    pattern: goRegexToJs(r.regex ?? ''),
    ...(r.secretGroup ? { secretGroup: r.secretGroup } : {}),
    ...(r.entropy ? { entropy: r.entropy } : {}),
    keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
    ...(allowlists.length > 0 ? { allowlists } : {}),
  };
}

/** An allow list as ctx can apply it, or undefined when it needs a path or a commit to ever clear anything. */
function allowlist(a: TomlAllowlist): Record<string, unknown> | undefined {
  const needsFile = (a.paths?.length ?? 0) > 0 || (a.commits?.length ?? 0) > 0;
  const all = a.condition?.toUpperCase() === 'AND';
  if (all && needsFile) return undefined;
  const regexes = (a.regexes ?? []).map(goRegexToJs);
  const stopwords = (a.stopwords ?? []).map((w) => w.toLowerCase());
  if (regexes.length === 0 && stopwords.length === 0) return undefined;
  return {
    ...(a.regexTarget === 'match' || a.regexTarget === 'line' ? { target: a.regexTarget } : {}),
    ...(all ? { all } : {}),
    ...(regexes.length > 0 ? { regexes } : {}),
    ...(stopwords.length > 0 ? { stopwords } : {}),
  };
}

/** The module's text from the vendored files. */
export function vendoredRulesFromFixtures(): Promise<string> {
  return vendoredRulesModule(
    fs.readFileSync(TOML_PATH, 'utf8'),
    fs.readFileSync(LICENSE_PATH, 'utf8'),
    fs.readFileSync(SOURCE_PATH, 'utf8'),
  );
}

if (require.main === module) {
  void vendoredRulesFromFixtures().then((text) => {
    fs.writeFileSync(RULES_PATH, text);
    console.log(`wrote ${RULES_PATH}`);
  });
}
