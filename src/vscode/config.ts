/** Settings are read here and only here, and handed to the engine as plain options. */
import * as vscode from 'vscode';
import type { EncodingName } from '../engine/host/ports';
import {
  DEFAULT_ANSWER_RESERVE_TOKENS,
  DEFAULT_BUDGET_CEILING_TOKENS,
  DEFAULT_OPTIONS,
  DEFAULT_REPORTED_WINDOW,
  DEFAULT_THRESHOLDS,
  type EngineOptions,
  type ReportedWindowSetting,
  reportedWindowSetting,
  validateThresholds,
} from '../engine/host/settings';

export const CONFIG_SECTION = 'ctx';

/**
 * The input window ctx's models report to their callers: a larger one than the wrapped model's
 * ('extended', the default) so that callers leave the compressing to ctx, or the model's own ('model').
 */
export type ReportedWindow = ReportedWindowSetting;

/** ctx's models, which wrap the chat models of other vendors. */
export interface ModelsConfig {
  readonly enabled: boolean;
  /** Vendors whose models are wrapped; empty means every vendor found. */
  readonly vendors: readonly string[];
  readonly reportedWindow: ReportedWindow;
}

export interface CtxConfig {
  readonly engine: EngineOptions;
  readonly answerReserveTokens: number;
  readonly maxInputTokensOverride: number;
  /** The most a budget is, however large the model's window (0: no ceiling). */
  readonly budgetCeilingTokens: number;
  /** 'auto' picks the encoding from the model family. */
  readonly encoding: EncodingName | 'auto';
  /** Restricts the tools of `vscode.lm.tools` that @ctx offers: names or globs like `copilot_*`; empty or `*` offers every tool. */
  readonly allowedTools: readonly string[];
  /** '' for the request's model, 'deterministic' for no model, or a model family or id. */
  readonly summarizerModel: string;
  /** Upper bound on model ↔ tool rounds in one @ctx turn. */
  readonly maxToolRounds: number;
  readonly models: ModelsConfig;
  /** Problems found in the settings, in plain words (e.g. thresholds that do not rise). */
  readonly problems: readonly string[];
}

export function readConfig(): CtxConfig {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const { thresholds, problem } = validateThresholds({
    yellowAt: c.get('levels.yellowAt', DEFAULT_THRESHOLDS.yellowAt),
    orangeAt: c.get('levels.orangeAt', DEFAULT_THRESHOLDS.orangeAt),
    redAt: c.get('levels.redAt', DEFAULT_THRESHOLDS.redAt),
    criticalAt: c.get('levels.criticalAt', DEFAULT_THRESHOLDS.criticalAt),
  });
  const encoding = c.get<string>('tokenizer.encoding', 'auto');
  return {
    engine: {
      ...DEFAULT_OPTIONS,
      thresholds,
      offloadThresholdTokens: c.get('offload.thresholdTokens', DEFAULT_OPTIONS.offloadThresholdTokens),
      offloadBudgetShare: Math.min(1, Math.max(0.01, c.get('offload.budgetShare', DEFAULT_OPTIONS.offloadBudgetShare))),
      recentMessagesKept: c.get('recentMessagesKept', DEFAULT_OPTIONS.recentMessagesKept),
      truncateInputsAt: c.get('truncateInputs.triggerAt', DEFAULT_OPTIONS.truncateInputsAt),
      checkpointTools: c.get('watermark.checkpointTools', [...DEFAULT_OPTIONS.checkpointTools]),
      checkpointTrigger: c.get('checkpoints.trigger', DEFAULT_OPTIONS.checkpointTrigger) === 'available' ? 'available' : 'red',
      targetUsageAfterCheckpoint: c.get('checkpoints.targetUsage', DEFAULT_OPTIONS.targetUsageAfterCheckpoint),
      checkpointTokens: c.get('checkpoints.summaryTokens', DEFAULT_OPTIONS.checkpointTokens),
      recentTokensKept: c.get('checkpoints.recentTokensKept', DEFAULT_OPTIONS.recentTokensKept),
      ledgerShare: c.get('ledger.budgetShare', DEFAULT_OPTIONS.ledgerShare),
      toolRecordShare: c.get('ledger.toolRecordShare', DEFAULT_OPTIONS.toolRecordShare),
      autoSnapshotAt: c.get('snapshots.autoAt', DEFAULT_OPTIONS.autoSnapshotAt),
      summaryTimeoutMs: Math.max(5, c.get('summarizer.timeoutSeconds', DEFAULT_OPTIONS.summaryTimeoutMs / 1000)) * 1000,
    },
    summarizerModel: c.get<string>('summarizer.model', '').trim(),
    answerReserveTokens: c.get('budget.answerReserveTokens', DEFAULT_ANSWER_RESERVE_TOKENS),
    maxInputTokensOverride: c.get('budget.maxInputTokensOverride', 0),
    budgetCeilingTokens: c.get('budget.ceilingTokens', DEFAULT_BUDGET_CEILING_TOKENS),
    encoding: encoding === 'o200k_base' || encoding === 'cl100k_base' ? encoding : 'auto',
    allowedTools: c.get('tools.allowed', []),
    maxToolRounds: Math.max(1, c.get('tools.maxRounds', 12)),
    models: {
      enabled: c.get('models.enabled', true),
      vendors: c.get<string[]>('models.vendors', []).filter((v) => typeof v === 'string' && v.trim() !== ''),
      reportedWindow: reportedWindowSetting(c.get<string>('models.reportedWindow', DEFAULT_REPORTED_WINDOW)),
    },
    problems: problem ? [problem] : [],
  };
}

/** Fires the listener when any ctx setting changes. */
export function onDidChangeConfig(listener: () => void, disposables: vscode.Disposable[]): void {
  vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(CONFIG_SECTION) && listener(), undefined, disposables);
}
