/**
 * ctx's models: one for each chat model of another vendor, named "<model> (ctx)", with the wrapped
 * model's family (callers pick their prompts by family) and tool calling.
 */
import type * as vscode from 'vscode';
import { reportedInputTokens } from '../../engine/host/relay';
import type { ReportedWindowSetting } from '../../engine/host/settings';

/** The vendor of ctx's models, as contributed in package.json. */
export const CTX_VENDOR = 'ctx';

/** Where a ctx model sends its requests. */
export interface WrappedModel {
  readonly vendor: string;
  readonly id: string;
}

export interface CtxModelInfo extends vscode.LanguageModelChatInformation {
  readonly wrapped: WrappedModel;
  /** The wrapped model's own input window, which what ctx sends always fits. */
  readonly wrappedInputTokens: number;
}

/** A ctx model's id: the wrapped model's vendor and id. */
export function ctxModelId(model: WrappedModel): string {
  return `${model.vendor}/${model.id}`;
}

/** The wrapped model of a ctx model, from the information VS Code hands back, or from its id alone. */
export function wrappedOf(info: { readonly id: string }): WrappedModel | undefined {
  const carried = (info as Partial<CtxModelInfo>).wrapped;
  if (carried) return carried;
  const slash = info.id.indexOf('/');
  return slash > 0 ? { vendor: info.id.slice(0, slash), id: info.id.slice(slash + 1) } : undefined;
}

/**
 * The information of the ctx model wrapping `model`. `isUserSelectable` is read by VS Code although
 * the finalized typings do not declare it: without it the model picker does not list the model.
 */
export function ctxModelInfo(model: vscode.LanguageModelChat, reported: ReportedWindowSetting, maxOutputTokens: number): CtxModelInfo {
  const info = {
    id: ctxModelId(model),
    name: `${model.name} (ctx)`,
    family: model.family,
    version: model.version,
    detail: 'ctx',
    tooltip: `${model.name} through ctx: long conversations are kept inside its ${model.maxInputTokens.toLocaleString('en-US')}-token window.`,
    maxInputTokens: reportedInputTokens(model.maxInputTokens, reported),
    maxOutputTokens,
    capabilities: { toolCalling: true },
    wrapped: { vendor: model.vendor, id: model.id },
    wrappedInputTokens: model.maxInputTokens,
    isUserSelectable: true,
  };
  return info;
}
