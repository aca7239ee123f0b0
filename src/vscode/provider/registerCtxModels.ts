/** Registers ctx's models: the provider, and listing them again when the installed models or the settings change. */
import * as vscode from 'vscode';
import { ConversationRouter } from '../../engine/conversation/conversationRouter';
import { systemClock } from '../../engine/ports';
import { CONFIG_SECTION } from '../config';
import { CTX_VENDOR } from './ctxModelInfo';
import { CtxModelProvider, type CtxModelDeps } from './ctxModelProvider';

export function registerCtxModels(context: vscode.ExtensionContext, deps: Omit<CtxModelDeps, 'router'>): CtxModelProvider {
  const router = new ConversationRouter({ store: deps.sessions.store, clock: systemClock, logger: deps.logger });
  const provider = new CtxModelProvider({ ...deps, router });
  context.subscriptions.push(
    provider,
    vscode.lm.registerLanguageModelChatProvider(CTX_VENDOR, provider),
    vscode.extensions.onDidChange(() => provider.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${CONFIG_SECTION}.models`) || e.affectsConfiguration(`${CONFIG_SECTION}.budget`)) provider.refresh();
    }),
  );
  return provider;
}
