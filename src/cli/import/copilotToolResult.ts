/**
 * A Copilot tool result as stored in a chat export (`toolCallResults[callId]`, a serialized
 * `LanguageModelToolResult`): text parts `{value: string}`, prompt-tsx parts `{value: {node}}`
 * whose text is spread over a tree, and data parts `{data, mimeType}` such as screenshots.
 */
import { isJsonObject, stringField, type JsonObject } from './jsonShape';
import { IMAGE_PLACEHOLDER } from './renderContent';

/** A prompt-tsx tree node that holds text (`PromptNodeType.Text`); other nodes only hold children. */
const TEXT_NODE = 2;

/** The result's text, with what had to be stood in for. */
export interface CopilotResultText {
  readonly text: string;
  /** Data parts that became a placeholder. */
  readonly placeholders: number;
  /** Parts of no known shape, kept as their JSON. */
  readonly unknownParts: number;
}

/** The text the model was given for one tool result; parts are joined with a line break. */
export function copilotResultText(result: unknown): CopilotResultText {
  const parts = isJsonObject(result) && Array.isArray(result.content) ? result.content : Array.isArray(result) ? result : [result];
  const texts: string[] = [];
  let placeholders = 0;
  let unknownParts = 0;
  for (const part of parts) {
    if (isJsonObject(part) && typeof part.value === 'string') {
      texts.push(part.value);
    } else if (isJsonObject(part) && isJsonObject(part.value) && isJsonObject(part.value.node)) {
      texts.push(treeText(part.value.node));
    } else if (isJsonObject(part) && typeof part.mimeType === 'string') {
      placeholders++;
      texts.push(part.mimeType.startsWith('image/') ? IMAGE_PLACEHOLDER : `[${part.mimeType} data]`);
    } else if (part !== undefined && part !== null) {
      unknownParts++;
      texts.push(JSON.stringify(part));
    }
  }
  return { text: texts.join('\n'), placeholders, unknownParts };
}

/**
 * The text pieces of a prompt-tsx tree, depth first. A piece marked `lineBreakBefore` starts on a
 * new line. File references are nodes without text, so the path they stood for is not in the text.
 */
function treeText(root: JsonObject): string {
  let text = '';
  const visit = (node: unknown): void => {
    if (!isJsonObject(node)) return;
    if (node.type === TEXT_NODE) {
      const piece = stringField(node, 'text') ?? '';
      if (node.lineBreakBefore === true && text !== '' && !text.endsWith('\n')) text += '\n';
      text += piece;
      return;
    }
    if (Array.isArray(node.children)) node.children.forEach(visit);
  };
  visit(root);
  return text;
}
