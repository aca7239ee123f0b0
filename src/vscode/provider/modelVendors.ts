/**
 * The vendors whose models ctx wraps: every vendor an installed extension contributes chat models
 * for (finalized `languageModelChatProviders` and the older `languageModels`), except ctx's own,
 * narrowed to the `ctx.models.vendors` setting when it names some. Read from the manifests, so
 * finding them never waits on any provider, ctx's included.
 */
import type * as vscode from 'vscode';
import { CTX_VENDOR } from './ctxModelInfo';

interface Contribution {
  readonly vendor?: unknown;
}

function vendorsIn(list: unknown): string[] {
  return Array.isArray(list) ? list.flatMap((c: Contribution) => (typeof c?.vendor === 'string' ? [c.vendor] : [])) : [];
}

export function modelVendors(extensions: readonly vscode.Extension<unknown>[], only: readonly string[]): string[] {
  const found = new Set<string>();
  for (const e of extensions) {
    const contributes = (e.packageJSON as { contributes?: Record<string, unknown> } | undefined)?.contributes;
    for (const v of [...vendorsIn(contributes?.languageModelChatProviders), ...vendorsIn(contributes?.languageModels)]) found.add(v);
  }
  found.delete(CTX_VENDOR);
  return [...found].filter((v) => only.length === 0 || only.includes(v)).sort();
}
