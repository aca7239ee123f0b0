/** The tools of an @ctx turn: which of `vscode.lm.tools` are offered, and how each round asks for them. */
import * as vscode from 'vscode';
import { CTX_TOOL_PREFIX } from './ctxTools';
import { chooseTools, type ToolChoice } from './toolSelection';
import { isWorkspaceTrusted } from './workspaceTrust';

/**
 * The tools of `vscode.lm.tools` that @ctx offers this turn (see `chooseTools`); in Restricted Mode only
 * ctx's own and the attached ones.
 */
export function offeredTools(
  allowed: readonly string[],
  references: readonly vscode.ChatLanguageModelToolReference[],
): ToolChoice<vscode.LanguageModelChatTool> {
  const available = vscode.lm.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  return chooseTools(available, {
    allowed,
    ownPrefix: CTX_TOOL_PREFIX,
    attached: references.map((r) => r.name),
    restricted: !isWorkspaceTrusted(),
  });
}

/** A call of a tool that was not offered this turn is not run: its result says why. */
export function notOfferedResult(name: string): string {
  return isWorkspaceTrusted()
    ? `Not run: ${name} was not offered in this turn. Use one of the tools you were given.`
    : `Not run: ${name} was not offered because the workspace is in Restricted Mode (not trusted). ` +
        `Use one of the tools you were given, or ask the user to attach it with #.`;
}

/**
 * A round's tools: when the user attached tools, the first round offers only those and requires a call,
 * as the chat API asks of participants; later rounds offer every chosen tool.
 */
export function requestTools(
  choice: ToolChoice<vscode.LanguageModelChatTool>,
  round: number,
): Pick<vscode.LanguageModelChatRequestOptions, 'tools' | 'toolMode'> {
  if (round === 0 && choice.attached.length > 0) {
    return { tools: [...choice.attached], toolMode: vscode.LanguageModelChatToolMode.Required };
  }
  return { tools: [...choice.tools], toolMode: vscode.LanguageModelChatToolMode.Auto };
}
