/**
 * Tools called in Cline's XML form, as Cline and Roo Code did before native tool calling: the tool's name as a tag on
 * its own line in the assistant's text, each parameter a tag inside it (`<execute_command>\n<command>npm test</command>\n
 * </execute_command>`). Which tags are calls is told by the turn after it, never by the tag's name: Cline answers each
 * call with a result headed by the tool's name (`[execute_command for 'npm test'] Result:`), so a tag is a call when the
 * next user turn holds a result of that name. A call Cline cut short (the model wrote on after it, "[Response interrupted
 * by a tool use result…]") runs to the end of the text.
 */
import { type Block, textBlock, toolCallBlock, type ToolCallBlock } from '../../engine/host/messages';
import { resultHeaderNames } from './clineClassic';
import { isJsonObject } from './jsonShape';
/** A parameter of a call: `<path>src/a.ts</path>`, its value as written. */
const PARAMETER = /<([A-Za-z_][\w-]*)>([\s\S]*?)<\/\1>/g;
/** What Cline appends after a call it cut the reply short at. */
const INTERRUPTED = /\n*\[Response interrupted by [^\]\n]*\]\s*$/;

/** An assistant's text split into its prose and the XML calls the next turn answers. */
interface XmlToolUse {
  readonly prose: string;
  readonly calls: readonly ToolCallBlock[];
}

/**
 * The calls of `text` that the next turn's results (`answeredNames`, in order) answer, each named `<idPrefix>:xml-call-N`;
 * the prose is the text before the first call. Undefined when no call of those names is in the text.
 */
function xmlToolCalls(text: string, answeredNames: readonly string[], idPrefix: string): XmlToolUse | undefined {
  const calls: ToolCallBlock[] = [];
  let from = 0;
  let proseEnd: number | undefined;
  for (const name of answeredNames) {
    const opening = new RegExp(`^[ \\t]*<${name}>[ \\t]*$`, 'm');
    const found = opening.exec(text.slice(from));
    if (found === null) continue;
    const start = from + found.index;
    const bodyStart = start + found[0].length;
    const closing = text.indexOf(`</${name}>`, bodyStart);
    const bodyEnd = closing < 0 ? text.length : closing;
    const body = text.slice(bodyStart, bodyEnd).replace(INTERRUPTED, '');
    proseEnd ??= start;
    calls.push(toolCallBlock(`${idPrefix}:xml-call-${calls.length + 1}`, name, parametersOf(body)));
    from = closing < 0 ? text.length : closing + name.length + 3;
  }
  if (calls.length === 0 || proseEnd === undefined) return undefined;
  return { prose: text.slice(0, proseEnd).trimEnd(), calls };
}

/** The parameters of a call's body, each value as written (a nested list stays its XML); an unclosed last one runs to the end. */
function parametersOf(body: string): Record<string, string> {
  const input: Record<string, string> = {};
  let end = 0;
  for (const match of body.matchAll(PARAMETER)) {
    input[match[1]] = trimLineBreaks(match[2]);
    end = (match.index ?? 0) + match[0].length;
  }
  const open = /<([A-Za-z_][\w-]*)>([\s\S]*)$/.exec(body.slice(end));
  if (open !== null && input[open[1]] === undefined) input[open[1]] = trimLineBreaks(open[2]);
  return input;
}

function trimLineBreaks(value: string): string {
  return value.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
}

/**
 * An assistant turn's blocks with the XML calls that `next` (the raw message after it) answers taken out of its text
 * and made calls; the blocks as they are when the next message is no user turn or answers none.
 */
export function withXmlToolCalls(blocks: readonly Block[], next: unknown, idPrefix: string): Block[] {
  if (!isJsonObject(next) || next.role !== 'user') return [...blocks];
  const names = resultHeaderNames(next.content);
  if (names.length === 0) return [...blocks];
  let answered = false;
  const out: Block[] = [];
  for (const block of blocks) {
    const use = !answered && block.type === 'text' && block.injected !== true ? xmlToolCalls(block.text, names, idPrefix) : undefined;
    if (use === undefined) {
      out.push(block);
      continue;
    }
    if (use.prose.trim() !== '') out.push(textBlock(use.prose));
    out.push(...use.calls);
    answered = true;
  }
  return out;
}
