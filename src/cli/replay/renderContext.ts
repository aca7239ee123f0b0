/**
 * The context as the model would be sent it, as Markdown: one section per message with its role,
 * its text as it is, each tool call with its arguments (strings as written) and each tool result with its content.
 */
import { formatCount } from '../../engine/host/display';
import type { Block, Message, ToolInput } from '../../engine/host/messages';
import type { Level } from '../../engine/host/settings';

/** The figures shown above the messages; all optional, so any message list can be rendered. */
export interface ContextHeading {
  readonly tokens?: number;
  readonly budget?: number;
  readonly level?: Level;
}

/** Renders messages as Markdown; text blocks are not escaped, so they read exactly as sent. */
export function renderContext(messages: readonly Message[], heading: ContextHeading = {}): string {
  const parts = [`# Context sent to the model`, '', summaryLine(messages, heading)];
  messages.forEach((message, index) => {
    parts.push(
      '',
      `## ${index + 1}. ${message.role}${message.at === undefined ? '' : ` · ${new Date(message.at).toISOString()}`} · \`${message.id}\``,
    );
    for (const block of message.blocks) parts.push('', renderBlock(block));
  });
  return `${parts.join('\n')}\n`;
}

function summaryLine(messages: readonly Message[], h: ContextHeading): string {
  const size = h.tokens === undefined ? '' : ` · ${formatCount(h.tokens)} tokens`;
  const budget =
    h.budget === undefined
      ? ''
      : ` of a ${formatCount(h.budget)}-token budget${h.tokens === undefined || h.budget <= 0 ? '' : ` (${((h.tokens / h.budget) * 100).toFixed(1)}%)`}`;
  const level = h.level === undefined ? '' : ` · ${h.level}`;
  return `${formatCount(messages.length)} messages${size}${budget}${level}`;
}

function renderBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'toolCall':
      return [`**Tool call** \`${block.name}\` · \`${block.id}\``, renderInput(block.input)].join('\n');
    case 'toolResult':
      return [
        `**Tool result**${block.toolName ? ` \`${block.toolName}\`` : ''} · \`${block.callId}\`${block.isError ? ' · error' : ''}`,
        fenced(block.content, 'text'),
      ].join('\n');
  }
}

/**
 * A call's arguments one per line, each string as the agent wrote it (JSON would escape its quotes
 * and newlines, and a phrase it quoted could no longer be found verbatim): a one-line string after
 * its name, a longer one fenced below it, a list of one-line strings (a command's words) one item a
 * line, anything else as JSON. No arguments are `{}`.
 */
function renderInput(input: ToolInput): string {
  const entries = Object.entries(input);
  if (entries.length === 0) return fenced('{}', 'json');
  return entries
    .map(([key, value]) => {
      if (typeof value === 'string' && !value.includes('\n')) return `\`${key}\`: ${value}`;
      if (typeof value === 'string') return `\`${key}\`:\n${fenced(value, 'text')}`;
      if (isLineList(value)) return [`\`${key}\`:`, ...value.map((item) => `- ${item}`)].join('\n');
      return `\`${key}\`:\n${fenced(JSON.stringify(value, null, 2) ?? 'null', 'json')}`;
    })
    .join('\n');
}

function isLineList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string' && !item.includes('\n'));
}

/** A code fence longer than any run of backticks in the content, so the content cannot close it. */
function fenced(content: string, language: string): string {
  const longestRun = (content.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0);
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${content}\n${fence}`;
}
