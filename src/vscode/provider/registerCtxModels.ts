/** Registers ctx's models: the provider, and listing them again when the installed models or the settings change. */
import * as vscode from 'vscode';
import { errorMessage } from '../../engine/host/display';
import { systemClock } from '../../engine/host/ports';
import { ConversationRouter } from '../../engine/host/relay';
import { CONFIG_SECTION } from '../config';
import { CTX_VENDOR } from './ctxModelInfo';
import { CtxModelProvider, type CtxModelDeps } from './ctxModelProvider';
import {
  COPILOT_CHAT_EXTENSION,
  GUIDANCE_ACTIONS,
  GUIDANCE_SHOWN_KEY,
  MODEL_GUIDANCE_TEXT,
  shouldShowModelGuidance,
} from './ctxModelGuidance';

export function registerCtxModels(context: vscode.ExtensionContext, deps: Omit<CtxModelDeps, 'router'>): CtxModelProvider {
  const router = new ConversationRouter({ store: deps.sessions.store, clock: systemClock, logger: deps.logger });
  const provider = new CtxModelProvider({ ...deps, router });
  context.subscriptions.push(
    provider,
    vscode.lm.registerLanguageModelChatProvider(CTX_VENDOR, provider),
    vscode.extensions.onDidChange(() => {
      provider.refresh();
      // Copilot is turned on only once its chat setup completes: the guidance waits for it.
      offerModelGuidance(context, deps);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${CONFIG_SECTION}.models`) || e.affectsConfiguration(`${CONFIG_SECTION}.budget`)) provider.refresh();
    }),
  );
  offerModelGuidance(context, deps);
  return provider;
}

/** Says once, beside Copilot, where the "(ctx)" models are (see `ctxModelGuidance.ts`). */
function offerModelGuidance(context: vscode.ExtensionContext, deps: Pick<CtxModelDeps, 'config' | 'logger'>): void {
  const facts = {
    copilotPresent: vscode.extensions.getExtension(COPILOT_CHAT_EXTENSION) !== undefined,
    modelsEnabled: deps.config().models.enabled,
    alreadyShown: context.globalState.get<boolean>(GUIDANCE_SHOWN_KEY) === true,
  };
  if (!shouldShowModelGuidance(facts)) return;
  void context.globalState.update(GUIDANCE_SHOWN_KEY, true);
  void vscode.window
    .showInformationMessage(MODEL_GUIDANCE_TEXT, GUIDANCE_ACTIONS.openChat, GUIDANCE_ACTIONS.readMore)
    .then(async (choice) => {
      if (choice === GUIDANCE_ACTIONS.openChat) await vscode.commands.executeCommand('workbench.action.chat.open');
      if (choice === GUIDANCE_ACTIONS.readMore) {
        await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.joinPath(context.extensionUri, 'README.md'));
      }
    })
    .then(undefined, (e: unknown) => deps.logger.warn(`The guidance on ctx's models could not be shown: ${errorMessage(e)}`));
}
