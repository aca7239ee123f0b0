import * as assert from 'node:assert/strict';
import {
  MAX_OUTPUT_DIAGNOSTICS,
  OUTPUT_HEAD_LINES,
  OUTPUT_LINE_SCORES,
  OUTPUT_TAIL_LINES,
  outputLineFacts,
} from '../../../src/engine/recall/outputLines';
import { call, result } from '../support/builders';

describe("lines of what the tools printed, for the earlier lines' pool", () => {
  it("takes the lines at both ends of a command's output verbatim, marked as printed and scored below every fact", () => {
    const body = Array.from({ length: 40 }, (_, i) => `  compiling module_${i} of the workspace`);
    const output = [
      'Deploying build 4812 to staging',
      ...body,
      'Uploaded 3 artifacts to s3://releases/4812',
      'Deploy finished: staging is on 4812',
    ];
    const facts = outputLineFacts([call('d1', 'bash', { command: './deploy.sh staging' }), result('d1', output.join('\n'))]);
    const texts = facts.map((f) => f.text);
    assert.ok(texts.includes('Deploying build 4812 to staging'), 'the first line');
    assert.ok(texts.includes('Deploy finished: staging is on 4812'), 'the last line');
    assert.ok(texts.includes('Uploaded 3 artifacts to s3://releases/4812'));
    assert.ok(facts.length <= OUTPUT_HEAD_LINES + OUTPUT_TAIL_LINES, `${facts.length} lines, not the whole output`);
    assert.ok(facts.every((f) => f.printed === true && f.score < 0.25 && f.subject === './deploy.sh staging'));
  });

  it("takes no line of a dump: a hex dump's bytes or a listing of object ids say nothing read alone", () => {
    const dump = [
      '00000000: 2f2f 2040 7473 2d63 6865 636b 0a69 6d70  // @ts-check.imp',
      '00000010: 6f72 7420 7b20 6465 6669 6e65 436f 6e66  ort { defineConf',
      "00000020: 6967 207d 2066 726f 6d20 2761 7374 726f  ig } from 'astro",
    ].join('\n');
    const ids = ['100644 9a3c1f0e2b7d44c1a8e5f6b2c3d4e5f6a7b8c9d0 0\tsrc/parse.ts', 'Checked out feature branch parse-dates'].join('\n');
    const facts = outputLineFacts([
      call('x1', 'bash', { command: 'xxd src/config.mjs | head -3' }),
      result('x1', dump),
      call('x2', 'bash', { command: 'git ls-files -s src/parse.ts && git switch parse-dates' }),
      result('x2', ids),
    ]);
    assert.deepEqual(
      facts.map((f) => f.text),
      ['Checked out feature branch parse-dates'],
    );
  });

  it('scores a line at the start of an output as one at its end, and only the closing lines of a step the agent moved on from above them', () => {
    const body = Array.from({ length: 60 }, (_, i) => `  resampled tile ${i} of the coastline layer`);
    const output = [
      'Rendering the coastline layer at zoom 9',
      'Using palette ocean-dark with 14 colours',
      ...body,
      'Cache hit ratio 0.82 for the ocean tiles',
      'Wrote 60 tiles to out/coastline/9',
      'Skipped 2 tiles already up to date',
      'Render took 41.2 s',
    ];
    const facts = outputLineFacts([
      call('t1', 'bash', { command: './render.sh coastline 9' }),
      result('t1', output.join('\n')),
      call('t2', 'bash', { command: 'ls out/harbour' }),
    ]);
    const score = (text: string) => facts.find((f) => f.text === text)?.score;
    const start = score('Using palette ocean-dark with 14 colours');
    const end = score('Cache hit ratio 0.82 for the ocean tiles');
    assert.ok(start !== undefined && end !== undefined, facts.map((f) => f.text).join(' | '));
    assert.equal(start, end, 'where a line stands in the output says nothing by itself');
    assert.ok((score('Render took 41.2 s') ?? 0) > start, 'the closing lines of a step the agent moved on from rank above');
  });

  it("leaves out npm's echo of a script's command, at the top of an output and among its last lines", () => {
    const run = (name: string, command: string) => [`> shop@2.4.0 ${name}`, `> ${command}`, ''];
    const body = Array.from({ length: 40 }, (_, i) => `  checked src/module_${i}.ts`);
    const output = [...run('lint', 'eslint src'), 'Linting 40 files', ...body, ...run('typecheck', 'tsc --noEmit'), 'Found 0 errors.'];
    const texts = outputLineFacts([
      call('n1', 'bash', { command: 'npm run lint && npm run typecheck' }),
      result('n1', output.join('\n')),
    ]).map((f) => f.text);
    assert.ok(texts.includes('Linting 40 files') && texts.includes('Found 0 errors.'), texts.join(' | '));
    assert.ok(!texts.some((t) => t.startsWith('> ')), `no echo: ${texts.filter((t) => t.startsWith('>')).join(' | ')}`);
  });

  it('leaves out a line printed again and again but for its numbers, and keeps the verdict after it', () => {
    const output = [...Array.from({ length: 30 }, (_, k) => `  ok parser case ${k}`), 'ok  \tgithub.com/acme/app/internal/parser\t0.092s'];
    const texts = outputLineFacts([call('g1', 'bash', { command: 'go test ./internal/parser/...' }), result('g1', output.join('\n'))]).map(
      (f) => f.text,
    );
    assert.deepEqual(texts, ['ok  \tgithub.com/acme/app/internal/parser\t0.092s']);
    // Two lines alike are not yet a log: each may say something of its own.
    const two = ['Uploaded 3 artifacts to s3://releases/4812', 'Uploaded 5 artifacts to s3://releases/4813', 'Deploy finished'];
    const kept = outputLineFacts([call('d1', 'bash', { command: './deploy.sh' }), result('d1', two.join('\n'))]).map((f) => f.text);
    assert.ok(kept.includes('Deploy finished') && kept.includes(two[0]), kept.join(' | '));
  });

  it("leaves out a section's banner, and keeps a framed verdict with its figures", () => {
    const output = [
      '============================= test session starts ==============================',
      'collected 12 items',
      'F...........',
      '=================================== FAILURES ===================================',
      '___________________________ test_round_half_even ___________________________',
      'E       assert 3 == 2',
      '------------------------------ Captured log ------------------------------',
      'WARNING  convert:convert.py:14 rounding mode unset',
      '========================= 1 failed, 11 passed in 0.21s =========================',
    ];
    const texts = outputLineFacts([call('t1', 'bash', { command: 'pytest' }), result('t1', output.join('\n'), true)]).map((f) => f.text);
    for (const banner of [output[0], output[3], output[6]]) assert.ok(!texts.includes(banner), banner);
    assert.ok(texts.includes(output[8]), 'the verdict');
    assert.ok(texts.includes('collected 12 items'));
  });

  it('keeps a column-aligned line with its spacing, so it is found as it was printed', () => {
    const output = ['To github.com:acme/ledger.git', '   4f1c2e9..8b0d7a1  release    -> release', 'Everything is pushed now'];
    const facts = outputLineFacts([call('p1', 'bash', { command: 'git push origin release' }), result('p1', output.join('\n'))]);
    assert.ok(
      facts.some((f) => f.text === '4f1c2e9..8b0d7a1  release    -> release'),
      facts.map((f) => f.text).join('\n'),
    );
  });

  it("reads a delegated agent's report by its prose: the code it quotes in fenced blocks takes no place at its ends", () => {
    const word = (i: number) => String.fromCharCode(97 + (i % 26), 97 + ((i * 7) % 26), 97 + ((i * 11) % 26));
    const quoted = Array.from({ length: 60 }, (_, i) => `  const ${word(i)}Handler = register("${word(i + 3)}", on${word(i + 5)});`);
    const findings = Array.from({ length: 35 }, (_, i) => `- the ${word(i)} route answers before the ${word(i + 9)} check has run`);
    const report = [
      'I went through the queue worker and its settings.',
      '```ts',
      ...quoted,
      '```',
      '- `drainQueue(limit: number)` stops after the first failed job instead of skipping it',
      ...findings,
    ];
    const facts = outputLineFacts([
      call('t1', 'Task', { description: 'Review the queue worker', prompt: 'Look at src/worker.' }),
      result('t1', report.join('\n')),
    ]);
    const texts = facts.map((f) => f.text);
    assert.ok(texts.includes('- `drainQueue(limit: number)` stops after the first failed job instead of skipping it'), texts.join('\n'));
    assert.ok(!texts.some((t) => t.includes('Handler = register(') || t.startsWith('```')), texts.join('\n'));
  });

  it("takes nothing from a file's content, and no line without words", () => {
    const read = outputLineFacts([
      call('r1', 'Read', { file_path: 'src/app.ts' }),
      result('r1', 'export const app = createApp();\n', false, 'Read'),
    ]);
    assert.deepEqual(read, []);
    const noise = outputLineFacts([call('n1', 'bash', { command: 'ls' }), result('n1', '$\n----\n42\n')]);
    assert.deepEqual(noise, []);
  });

  it('takes the diagnostic lines from anywhere in the output, as errors ranked above its plain lines', () => {
    const progress = (from: number) => Array.from({ length: 30 }, (_, i) => `  building crate_${from + i} of the workspace`);
    const names = [
      'alpha',
      'bravo',
      'charlie',
      'delta',
      'echo',
      'foxtrot',
      'golf',
      'hotel',
      'india',
      'juliet',
      'kilo',
      'lima',
      'mike',
      'nova',
      'oscar',
    ];
    const errors = names.map((name) => `error[E0425]: cannot find value \`${name}\` in this scope`);
    const output = ['Compiling ledger v0.4.1', ...progress(0), ...errors, ...progress(30), 'Finished with status 101'];
    const facts = outputLineFacts([call('b1', 'bash', { command: 'cargo build --release' }), result('b1', output.join('\n'), true)]);
    const diagnostics = facts.filter((f) => f.kind === 'error');
    assert.deepEqual(
      diagnostics.map((f) => f.text),
      errors.slice(0, MAX_OUTPUT_DIAGNOSTICS),
    );
    assert.ok(
      diagnostics.every((f) => f.printed === true && f.score === OUTPUT_LINE_SCORES.diagnostic && f.subject === 'cargo build --release'),
    );
    const plain = facts.filter((f) => f.kind !== 'error');
    assert.ok(plain.length > 0 && plain.every((f) => f.score < OUTPUT_LINE_SCORES.diagnostic && f.score < 0.25));
    assert.equal(new Set(facts.map((f) => f.text)).size, facts.length, 'each line once');
  });

  it('leaves out the fields a harness wraps a result in, the runs a build prints item by item, and a message repeated for each place', () => {
    const deps = ['postgrex', 'ecto_sql', 'crux', 'finch', 'igniter'].flatMap((dep, i) => [
      `==> ${dep}`,
      `Compiling ${10 + i} files (.ex)`,
      `Generated ${dep} app`,
    ]);
    const build = [
      '<retrieval_status>success</retrieval_status>',
      '<output>',
      ...deps,
      'docs/a.md:12:5 MD055/table-pipe-style Table pipe does not align with header for style "aligned"',
      'docs/a.md:19:5 MD055/table-pipe-style Table pipe does not align with header for style "aligned"',
      'docs/a.md:31:5 MD055/table-pipe-style Table pipe does not align with header for style "aligned"',
      'Finished in 0.7 seconds (0.00s async, 0.7s sync)',
      '31 tests, 0 failures',
      '</output>',
      '<usage>total_tokens: 49100',
      'tool_uses: 25',
      'duration_ms: 57709</usage>',
    ];
    const texts = outputLineFacts([call('b1', 'bash', { command: 'mix test' }), result('b1', build.join('\n'))]).map((f) => f.text);
    assert.ok(
      texts.includes('31 tests, 0 failures') && texts.includes('Finished in 0.7 seconds (0.00s async, 0.7s sync)'),
      texts.join('\n'),
    );
    assert.deepEqual(
      texts.filter((t) => /==>|Generated|Compiling|retrieval_status|total_tokens|tool_uses|duration_ms/.test(t)),
      [],
    );
    assert.equal(texts.filter((t) => t.includes('Table pipe does not align')).length, 1, texts.join('\n'));
  });

  it("takes what the program printed from a host's record of a shell run, never the record's echo of the command or its process fields", () => {
    const record = [
      'Command: ./deploy.sh staging --region eu-west-3',
      'Directory: (root)',
      'Output: Deploying build 4812 to staging',
      'Deploy finished: staging is on 4812',
      'Error: (none)',
      'Exit Code: 0',
      'Signal: (none)',
      'Background PIDs: (none)',
      'Process Group PGID: 5120',
    ].join('\n');
    const texts = outputLineFacts([
      call('d1', 'run_shell_command', { command: './deploy.sh staging --region eu-west-3' }),
      result('d1', record),
    ]).map((f) => f.text);
    assert.ok(texts.includes('Deploying build 4812 to staging') && texts.includes('Deploy finished: staging is on 4812'), texts.join('\n'));
    assert.ok(!texts.some((t) => /^(?:Command|Directory|Output|Process Group PGID):/.test(t)), texts.join('\n'));
  });

  it('takes a line that only names a file when the agent went on with that file, and not otherwise', () => {
    const listing = [
      'Searching the docs for bare URLs',
      'site/docs/guide.mdx                 32',
      'site/docs/login.mdx                 1',
      'site/src/pages/terms.mdx         1',
      'src\\shell\\scripts\\init.lua',
      'logging/logger.go-10-//',
      'hints.mdx:40',
      'total: 34 in 3 files',
    ];
    const facts = outputLineFacts([
      call('g1', 'bash', { command: 'grep -c "http" -r website' }),
      result('g1', listing.join('\n')),
      call('r1', 'Read', { file_path: 'site/docs/guide.mdx' }),
      result('r1', '# FAQ'),
    ]);
    const texts = facts.map((f) => f.text);
    assert.ok(texts.includes('site/docs/guide.mdx                 32'), `the file read next stays: ${texts.join(' | ')}`);
    for (const name of listing.slice(2, 7)) assert.ok(!texts.includes(name), `${name} is only a name nobody went on with`);
    assert.ok(
      texts.includes('Searching the docs for bare URLs') && texts.includes('total: 34 in 3 files'),
      'lines that say something stay',
    );
  });

  it("reads a command that only printed a file's lines as a read of that file: none of them is a printed line", () => {
    const source = [
      'export function parseSku(raw: string): string {',
      '  const trimmed = raw.trim();',
      '  return trimmed.toUpperCase();',
      '}',
    ];
    const facts = outputLineFacts([
      call('s1', 'exec_command', { cmd: "sed -n '1,80p' src/lib/sku.ts" }),
      result('s1', source.join('\n')),
      call('s2', 'exec_command', { cmd: 'nl -ba src/lib/sku.ts | sed -n 1,3p' }),
      result('s2', source.map((l, i) => `${i + 1}\t${l}`).join('\n')),
      call('s3', 'exec_command', { cmd: 'npm run build' }),
      result('s3', 'Building 3 entry points\nBuilt dist/index.js in 1.2s'),
    ]);
    const texts = facts.map((f) => f.text);
    assert.ok(!texts.some((t) => t.includes('trimmed') || t.includes('parseSku')), `no line of the file: ${texts.join(' | ')}`);
    assert.ok(texts.includes('Built dist/index.js in 1.2s'), 'a command that ran something still gives its lines');
  });
});
