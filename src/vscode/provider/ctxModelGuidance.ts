/**
 * The first-run guidance for ctx's models: where Copilot's agent is installed, the "(ctx)" models
 * sit in its model picker's collapsed "Other Models" group, where nobody looks. The first time ctx
 * runs beside Copilot (with its models on) it says once where they are and which chats they serve.
 * This file decides and words it; `registerCtxModels.ts` shows it. No `vscode` import.
 */

/** The extension id of Copilot Chat, built in from VS Code 1.139 on. */
export const COPILOT_CHAT_EXTENSION = 'github.copilot-chat';

/** Where ctx remembers, for the user, that the guidance was shown (global state). */
export const GUIDANCE_SHOWN_KEY = 'ctx.modelsGuidanceShown';

/** What the decision reads. */
export interface GuidanceFacts {
  /** Copilot Chat is installed (and so its agent and its model picker). */
  readonly copilotPresent: boolean;
  /** `ctx.models.enabled`. */
  readonly modelsEnabled: boolean;
  /** The guidance was shown before (in any workspace). */
  readonly alreadyShown: boolean;
}

/** True when the guidance should be shown now. */
export function shouldShowModelGuidance(facts: GuidanceFacts): boolean {
  return facts.copilotPresent && facts.modelsEnabled && !facts.alreadyShown;
}

/** The guidance, in plain words: where the models are, and which chats they serve. */
export const MODEL_GUIDANCE_TEXT =
  'ctx can manage the context of Copilot\'s agent: in the Chat view, open the model picker, expand "Other Models" and pick ' +
  '"<your model> (ctx)". It serves chats on the Local harness; chats handed to the Copilot, Claude or Codex harness do not ' +
  "go through VS Code's models, so ctx does not see them. @ctx works with any model.";

/** The buttons of the guidance. */
export const GUIDANCE_ACTIONS = { openChat: 'Open Chat', readMore: 'How it works' } as const;
