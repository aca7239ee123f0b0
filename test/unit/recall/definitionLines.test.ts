import * as assert from 'node:assert/strict';
import { definitionLines, MAX_DEFINITION_LINES } from '../../../src/engine/recall/definitionLines';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { call, result } from '../support/builders';

describe('the lines of a written file that open what it defines', () => {
  it('takes the lines at the left margin with a body indented under them, in any language', () => {
    const ts = [
      'import {',
      '  trim,',
      '} from "./text";',
      '',
      '/** Upper-cases a SKU. */',
      'export function normalizeSku(raw: string): string {',
      '  return trim(raw).toUpperCase();',
      '}',
    ].join('\n');
    assert.deepEqual(definitionLines(ts), ['export function normalizeSku(raw: string): string {']);
    const py =
      'import csv\n\n\ndef load_rates(path):\n    with open(path) as f:\n        return list(csv.reader(f))\n\nclass RateTable:\n    pass\n';
    assert.deepEqual(definitionLines(py), ['def load_rates(path):', 'class RateTable:']);
    assert.deepEqual(definitionLines('[tool.ruff]\nline-length = 100\nselect = ["E", "F"]\n'), [], 'nothing indented under a TOML table');
    const many = Array.from({ length: 6 }, (_, i) => `func step${i}() {\n\trun(${i})\n}`).join('\n');
    assert.equal(definitionLines(many).length, MAX_DEFINITION_LINES);
  });

  it("gives a created file's definitions as artifacts naming the file", () => {
    const content = 'export function normalizeSku(raw: string): string {\n  return raw.trim().toUpperCase();\n}\n';
    const facts = extractFacts([call('w1', 'write_file', { path: 'src/lib/sku.ts', content }), result('w1', 'Wrote src/lib/sku.ts')]);
    const definition = facts.find((f) => f.text.includes('normalizeSku'));
    assert.equal(definition?.kind, 'artifact');
    assert.equal(definition?.text, 'In sku.ts: export function normalizeSku(raw: string): string {');
  });
});
