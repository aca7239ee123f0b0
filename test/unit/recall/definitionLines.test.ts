import * as assert from 'node:assert/strict';
import {
  definitionLines,
  MAX_CONSTANT_LINES,
  MAX_DEFINITION_LINES,
  pieceDefinitionLines,
  readConstantLines,
} from '../../../src/engine/recall/definitionLines';
import { addedLines } from '../../../src/engine/recall/editChange';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { call, result, user } from '../support/builders';

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

describe('the definitions an edit puts in', () => {
  it('reads a piece of a file with its least indented lines as the margin, so a method put into a class counts', () => {
    const method = ['    def refund_total(self, order):', '        return sum(line.refund for line in order.lines)'];
    assert.deepEqual(pieceDefinitionLines(method), ['def refund_total(self, order):']);
    assert.deepEqual(pieceDefinitionLines(['    total += line.refund', '    count += 1']), [], 'statements define nothing');
    assert.deepEqual(pieceDefinitionLines([]), []);
  });

  it('takes no control statement, list item or comment for a definition, though a body is indented under it', () => {
    const piece = [
      '- Order imports as follows:',
      '    - built-ins first',
      'for (const copy of copies) {',
      '  reserve(copy);',
      '}',
      '# Holds',
      '  Reserved copies wait a week.',
      'if __name__ == "__main__":',
      '    main()',
      'export function holdsFor(member: Member): Hold[] {',
      '  return holds.filter((h) => h.member === member.id);',
      '}',
    ];
    assert.deepEqual(pieceDefinitionLines(piece), ['export function holdsFor(member: Member): Hold[] {']);
  });

  it('takes only the lines the edit added: a replacement, a list of edits, a patch', () => {
    const old = 'def load(path):\n    return read(path)';
    const replacement = 'def load(path):\n    return read(path)\n\ndef load_cached(path):\n    return cache.get(path) or load(path)';
    assert.deepEqual(addedLines({ file_path: 'io.py', old_string: old, new_string: replacement }), [
      'def load_cached(path):',
      '    return cache.get(path) or load(path)',
    ]);
    assert.deepEqual(addedLines({ edits: [{ oldText: 'a = 1', newText: 'a = 2' }] }), ['a = 2']);
    const blocks = [
      '<<<<<<< SEARCH',
      'a = 1',
      '=======',
      'a = 2',
      '>>>>>>> REPLACE',
      '<<<<<<< SEARCH',
      'b = 1',
      '=======',
      'b = 3',
      '>>>>>>> REPLACE',
    ];
    assert.deepEqual(addedLines({ path: 'src/ab.py', diff: blocks.join('\n') }), ['a = 2', 'b = 3'], 'every block of a diff');
    const patch =
      '*** Begin Patch\n*** Update File: src/ids.go\n@@\n-var x = 1\n+func EnsureTenantID(a Account) string {\n+\treturn a.TenantID\n+}\n*** End Patch';
    assert.deepEqual(addedLines({ input: patch }), ['func EnsureTenantID(a Account) string {', '\treturn a.TenantID', '}']);
  });

  it("gives a helper an edit defines as an artifact naming the file, though the edit's first added line is another", () => {
    const input = {
      file_path: 'src/billing/applyCoupon.ts',
      old_string: 'const total = price(order);',
      new_string: [
        'import { roundCents } from "@/lib/money";',
        '',
        'function clampDiscount(discount: number, total: number): number {',
        '  return Math.min(discount, total);',
        '}',
        'const total = price(order);',
      ].join('\n'),
    };
    const facts = extractFacts([
      call('e1', 'Edit', input),
      result('e1', 'The file src/billing/applyCoupon.ts has been updated successfully.'),
    ]);
    const helper = facts.find((f) => f.text.includes('clampDiscount'));
    assert.equal(helper?.kind, 'artifact');
    assert.equal(helper?.text, 'In applyCoupon.ts: function clampDiscount(discount: number, total: number): number {');
    assert.ok(
      facts.some((f) => f.text === 'Now in applyCoupon.ts: import { roundCents } from "@/lib/money";'),
      'the first added line stays an outcome',
    );
  });
});

describe('the definitions of a file read that later work built on', () => {
  const read = (id: string, path: string, numbered: string) => [call(id, 'Read', { file_path: path }), result(id, numbered)];
  const numbered = (lines: readonly string[]) => lines.map((line, i) => `${String(i + 1).padStart(6)}→${line}`).join('\n');

  it('keeps a definition a file read opens when a later change writes the name it defines, and only then', () => {
    const rates = numbered([
      'import { readFileSync } from "node:fs";',
      '',
      'export function loadRateTable(path: string): RateTable {',
      '  return JSON.parse(readFileSync(path, "utf8"));',
      '}',
      'export function parseCurrencyCode(raw: string): string {',
      '  return raw.trim().toUpperCase();',
      '}',
      'function main() {',
      '  run();',
      '}',
    ]);
    const messages = [
      user('Add a conversion endpoint that uses the existing rate table.'),
      ...read('r1', 'src/rates.ts', rates),
      call('w1', 'Write', {
        file_path: 'src/convert.ts',
        content: 'import { loadRateTable } from "./rates";\nexport const table = loadRateTable("rates.json");\nmain();\n',
      }),
      result('w1', 'Wrote src/convert.ts'),
    ];
    const texts = extractFacts(messages).map((f) => f.text);
    assert.ok(texts.includes('In rates.ts: export function loadRateTable(path: string): RateTable {'), texts.join('\n'));
    // Nothing after the read wrote it; and `main` is a word as much as a name, whatever a later change wrote.
    assert.ok(!texts.some((t) => t.includes('parseCurrencyCode') || t.includes('function main')), texts.join('\n'));
  });

  it('reads a file as OpenCode numbers it, and never keeps a definition the change wrote before the read', () => {
    const content = ['<content>', '1: export function buildMeta(', '2:   title: string,', '3: ) {', '</content>'].join('\n');
    const before = [
      call('w0', 'write', { filePath: 'app/page.tsx', content: 'buildMeta("Home");' }),
      result('w0', 'Wrote file successfully.'),
    ];
    const after = [call('w2', 'write', { filePath: 'app/about/page.tsx', content: 'export const metadata = buildMeta("About");' })];
    const read1 = [call('r1', 'read', { filePath: 'lib/meta.ts' }), result('r1', content)];
    const built = (messages: Parameters<typeof extractFacts>[0]) =>
      extractFacts(messages).some((f) => f.text.includes('function buildMeta('));
    assert.equal(built([user('Add an about page.'), ...before, ...read1, ...after, result('w2', 'Wrote file successfully.')]), true);
    assert.equal(built([user('Add an about page.'), ...before, ...read1]), false);
  });
});

describe('the named constants of a file read', () => {
  it('takes constants set at the left margin to a number written out, with their comment, in several languages', () => {
    const go = [
      'package relay',
      '',
      'const DIAL_TIMEOUT_MS = 2500 // before a peer counts as gone',
      '',
      'func dial() {',
      '\tconst INNER_LIMIT = 3',
      '}',
    ];
    assert.deepEqual(readConstantLines(go.join('\n')), ['const DIAL_TIMEOUT_MS = 2500 // before a peer counts as gone']);
    const py = ['import os', 'QUEUE_NAME = "invoices-v2"', 'max_workers = 4', 'BATCH_SIZE: int = 64', 'RETRIES = compute_retries()'];
    assert.deepEqual(
      readConstantLines(py.join('\n')),
      ['BATCH_SIZE: int = 64'],
      'a call is no number written out, and a string may be a key',
    );
    assert.deepEqual(readConstantLines('#define RING_SLOTS 512\n#define NAME(x) x\n'), ['#define RING_SLOTS 512']);
    assert.deepEqual(
      readConstantLines('PORT_2=8080\nSTRIPE_SECRET_KEY="sk_test_4eC39HqLyjWDarjtT1zdp7dc"\n'),
      ['PORT_2=8080'],
      'no string of a settings file',
    );
    const many = Array.from({ length: 6 }, (_, i) => `export const LIMIT_${i} = ${i};`).join('\n');
    assert.equal(readConstantLines(many).length, MAX_CONSTANT_LINES);
  });

  it("keeps a file read's named constant as an artifact naming the file, numbered as the reader showed it", () => {
    const shown = ['#!/usr/bin/env node', "const { spawn } = require('child_process');", 'const CHUNK_LIMIT_KB = 64 * 4; // per upload'];
    const numbered = shown.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('\n');
    const facts = extractFacts([
      user('Why do large uploads stall?'),
      call('r1', 'Read', { file_path: 'bin/upload.js' }),
      result('r1', numbered),
    ]);
    const constant = facts.find((f) => f.text === 'In upload.js: const CHUNK_LIMIT_KB = 64 * 4; // per upload');
    assert.equal(constant?.kind, 'artifact', facts.map((f) => f.text).join('\n'));
    assert.ok(!facts.some((f) => f.text.includes('require(')), 'a line that calls something is no constant');
  });
});
