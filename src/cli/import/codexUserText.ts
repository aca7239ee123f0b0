/**
 * Which parts of a Codex user message the user typed. Codex adds user-role items of its own (the
 * project's AGENTS.md, an `<environment_context>`); what the user typed is also logged as a
 * `user_message` event, so where the rollout has such events they decide (an item that ends with a
 * typed text, after context an IDE put before it, is split there). Older rollouts without
 * them fall back to the tags and the heading Codex writes its additions with.
 */
import { injectedTextBlock, splitInjectedTags, textBlock, type TextBlock } from '../../engine/host/messages';
import { isJsonObject, stringField, type JsonObject } from './jsonShape';
import { IMAGE_PLACEHOLDER } from './renderContent';

/** Tags Codex wraps the context it adds to a user turn in. */
export const CODEX_INJECTED_TAGS: readonly string[] = ['environment_context', 'user_instructions', 'INSTRUCTIONS', 'user_shell_command'];

/** How Codex starts the user-role item that carries a project's AGENTS.md. */
const AGENTS_FILE_HEADING = /^\s*# AGENTS\.md instructions\b/;

/** True when the text is the user-role item Codex writes a project's AGENTS.md into. */
export function isAgentsFileText(text: string): boolean {
  return AGENTS_FILE_HEADING.test(text);
}

/** The texts of the `user_message` events: what the user typed, as Codex logged it. */
export function userMessageEvents(payloads: readonly JsonObject[]): ReadonlySet<string> {
  return new Set(
    payloads
      .filter((p) => p.type === 'user_message')
      .flatMap((p) => {
        const message = stringField(p, 'message');
        return message === undefined ? [] : [message.trim()];
      }),
  );
}

/** A user message as blocks, with what had to be stood in for. */
export interface CodexUserBlocks {
  readonly blocks: TextBlock[];
  /** Images that became a placeholder. */
  readonly placeholders: number;
  /** Part types nobody here knows, kept as their JSON (injected: who wrote them is unknown). */
  readonly unknownTypes: readonly string[];
}

/**
 * A user item's text against what the user typed: the whole item when it is a typed text; else,
 * when it ends with one (an IDE puts its context, the open file and tabs, before the request), that
 * ending is the user's and what comes before it is injected; else all of it is injected.
 */
function typedBlocks(text: string, typed: ReadonlySet<string>): TextBlock[] {
  const trimmed = text.trimEnd();
  if (typed.has(trimmed.trim())) return [textBlock(text)];
  let words = '';
  for (const candidate of typed) if (candidate !== '' && candidate.length > words.length && trimmed.endsWith(candidate)) words = candidate;
  if (words === '') return [injectedTextBlock(text)];
  return [injectedTextBlock(trimmed.slice(0, trimmed.length - words.length)), textBlock(words)];
}

/** A user message's content parts as blocks, the ones Codex added marked injected. */
export function codexUserBlocks(content: readonly unknown[], typed: ReadonlySet<string>): CodexUserBlocks {
  const blocks: TextBlock[] = [];
  const unknownTypes: string[] = [];
  let placeholders = 0;
  for (const part of content) {
    const type = isJsonObject(part) ? stringField(part, 'type') : undefined;
    if (type === 'input_image') {
      placeholders++;
      blocks.push(textBlock(IMAGE_PLACEHOLDER));
      continue;
    }
    const text = isJsonObject(part) && (type === 'input_text' || type === 'text') ? (stringField(part, 'text') ?? '') : undefined;
    if (text === undefined) {
      unknownTypes.push(type ?? typeof part);
      blocks.push(injectedTextBlock(JSON.stringify(part)));
      continue;
    }
    if (text === '') continue;
    if (typed.size > 0) blocks.push(...typedBlocks(text, typed));
    else if (isAgentsFileText(text)) blocks.push(injectedTextBlock(text));
    // Codex gives each of its additions an item of its own: one that opens with a tag is Codex's, listed or not.
    else blocks.push(...splitInjectedTags(text, CODEX_INJECTED_TAGS, { leadingTagFrames: true }));
  }
  return { blocks, placeholders, unknownTypes };
}
