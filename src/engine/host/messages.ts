/**
 * The engine's public surface for building messages: the message and block shapes, their
 * constructors, and the reading of framing tags. The `@ctx` participant, the ctx models and the
 * transcript importers turn what they receive into these before a session sees it.
 */
export type { Block, Message, Role, TextBlock, ToolCallBlock, ToolInput, ToolResultBlock } from '../types';
export {
  injectedTextBlock,
  message,
  printedTextBlock,
  requestedTextBlock,
  textBlock,
  toolCallBlock,
  toolCalls,
  toolResultBlock,
} from '../types';
export { newMessageId } from '../ids';
export type { FramingOptions } from '../text/injectedTags';
export { splitAuthoredTag, splitInjectedTags, userTextBlocks } from '../text/injectedTags';
export { persistableInput } from '../tiers/truncateInputs';
export { EXIT_STATUS } from '../text/hostFrame';
