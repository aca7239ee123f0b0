import * as assert from 'node:assert/strict';
import { fileDescription, MAX_DESCRIPTION_LINES } from '../../../src/engine/recall/fileDescription';
import { fileFacts } from '../../../src/engine/recall/fileFacts';
import { readToolSteps } from '../../../src/engine/recall/toolSteps';
import { call, result } from '../support/builders';

const numbered = (lines: readonly string[], from = 1) => lines.map((l, i) => `${String(from + i).padStart(6)}→${l}`).join('\n');

describe('what a file says it is', () => {
  it('reads the comment lines at the top of a file as written, in any comment syntax, without the reader’s line numbers', () => {
    assert.deepEqual(
      fileDescription(numbered(['#!/bin/sh', '# Rotate the tariff exports older than a week', 'find /exports -mtime +7 -delete'])),
      ['# Rotate the tariff exports older than a week'],
    );
    assert.deepEqual(
      fileDescription(['/**', ' * Billing cycle scheduler for the meter fleet', ' */', 'export class Cycle {}'].join('\n')),
      ['* Billing cycle scheduler for the meter fleet'],
    );
    assert.deepEqual(fileDescription(['-- Views the finance team reads every morning', 'CREATE VIEW x AS SELECT 1;'].join('\n')), [
      '-- Views the finance team reads every morning',
    ]);
  });

  it('reads a docstring without its quotes, on its own lines or on one', () => {
    const elixir = [
      'defmodule Meters.Import do',
      '  @moduledoc """',
      '  Imports the nightly meter readings from the utility feed.',
      '  """',
    ];
    assert.deepEqual(fileDescription(numbered(elixir)), ['Imports the nightly meter readings from the utility feed.']);
    assert.deepEqual(fileDescription('"""Parses the utility feed into meter readings."""\nimport csv\n'), [
      'Parses the utility feed into meter readings.',
    ]);
  });

  it('takes no directive, licence, short label or code, at most a few lines, and nothing from a read that starts further down', () => {
    const noise = ['//go:build linux', '// Copyright 2024 the meter authors, all rights reserved', '# utils', 'const x = "a b c d";'];
    assert.deepEqual(fileDescription(noise.join('\n')), []);
    const many = Array.from({ length: 6 }, (_, i) => `# Step ${i} of the export pipeline runs here`).join('\n');
    assert.equal(fileDescription(many).length, MAX_DESCRIPTION_LINES);
    assert.deepEqual(fileDescription(numbered(['# A comment in the middle of the file, not its description'], 120)), []);
  });

  it("takes a manifest's own description field, in JSON, TOML or YAML, and none of a part nested deeper", () => {
    const packageJson =
      '{\n\t"name": "@acme/tariffs",\n\t"version": "2.1.0",\n\t"description": "Tariff tables with hourly meter pricing",\n}';
    assert.deepEqual(fileDescription(packageJson), ['Tariff tables with hourly meter pricing']);
    const cargo = '[package]\nname = "tariffs"\ndescription = "Hourly meter pricing for the billing service"\nedition = "2021"';
    assert.deepEqual(fileDescription(numbered(cargo.split('\n'))), ['Hourly meter pricing for the billing service']);
    assert.deepEqual(fileDescription('name: nightly export\ndescription: Export the meter readings every night\non: schedule'), [
      'Export the meter readings every night',
    ]);
    const nested = '{\n  "scripts": {\n    "build": {\n        "description": "Builds every package of the workspace"\n    }\n  }\n}';
    assert.deepEqual(fileDescription(nested), []);
  });

  it("gives a read file's fact its description, keyed on the line as written", () => {
    const [step] = readToolSteps([
      call('r1', 'Read', { file_path: 'ops/rotate.sh' }),
      result('r1', numbered(['#!/bin/sh', '# Rotate the tariff exports older than a week']), false, 'Read'),
    ]);
    const described = fileFacts(step).find((f) => f.key === '# Rotate the tariff exports older than a week');
    assert.ok(
      described,
      fileFacts(step)
        .map((f) => f.text)
        .join('\n'),
    );
    assert.equal(described.kind, 'artifact');
    assert.equal(described.text, 'rotate.sh: # Rotate the tariff exports older than a week');
  });
});
