#!/usr/bin/env node
// Runs the compiled unit tests with mocha's spec reporter and ends with "unit: N passed, M failed".
const Mocha = require('mocha');
const fs = require('node:fs');
const path = require('node:path');

const unitDir = path.resolve(__dirname, '..', 'out', 'test', 'unit');
const mocha = new Mocha({ timeout: 60_000, reporter: 'spec' });
const files = [];
(function collect(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) collect(full);
    else if (entry.name.endsWith('.test.js')) files.push(full);
  }
})(unitDir);
files.sort().forEach((f) => mocha.addFile(f));

const runner = mocha.run((failures) => {
  const { passes, failures: failed, pending } = runner.stats;
  console.log(`unit: ${passes} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
  process.exitCode = failures > 0 ? 1 : 0;
});
