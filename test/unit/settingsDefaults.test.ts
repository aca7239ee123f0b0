import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_OPTIONS, type EngineOptions } from '../../src/engine/options';
import { REPOSITORY_ROOT } from './support/repository';

/** Settings a user sees in VS Code, by the engine option each one sets. */
const SETTING_OF: Partial<Record<keyof EngineOptions, string>> = {
  offloadThresholdTokens: 'ctx.offload.thresholdTokens',
  offloadBudgetShare: 'ctx.offload.budgetShare',
  recentMessagesKept: 'ctx.recentMessagesKept',
  targetUsageAfterCheckpoint: 'ctx.checkpoints.targetUsage',
  checkpointTokens: 'ctx.checkpoints.summaryTokens',
  recentTokensKept: 'ctx.checkpoints.recentTokensKept',
  ledgerShare: 'ctx.ledger.budgetShare',
  toolRecordShare: 'ctx.ledger.toolRecordShare',
};

describe('the settings a user sees', () => {
  it('default to what the engine does when nothing is set', () => {
    const properties = manifestSettings();
    for (const [option, setting] of Object.entries(SETTING_OF)) {
      assert.ok(setting in properties, `${setting} is a setting`);
      assert.equal(properties[setting].default, DEFAULT_OPTIONS[option as keyof EngineOptions], setting);
    }
  });

  it('have a row each in the README, with the default they have', () => {
    const readme = fs.readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8').split('\n');
    for (const [setting, { default: value }] of Object.entries(manifestSettings())) {
      const row = readme.find((line) => line.startsWith(`| \`${setting}\``));
      assert.ok(row, `${setting} has a row`);
      const shown = [`\`${JSON.stringify(value)}\``, `\`${String(value)}\``];
      assert.ok(
        shown.some((s) => row.includes(s)),
        `${setting}: ${row}`,
      );
    }
  });
});

function manifestSettings(): Record<string, { readonly default?: unknown }> {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  };
  return manifest.contributes.configuration.properties;
}
