/** A part of a model's answer as the turn sees it; `part` is the host's own object, which is what is forwarded. */
import type { ToolCallBlock } from '../types';

export type AnswerPart<Part> =
  | { readonly kind: 'text'; readonly text: string; readonly part: Part }
  | { readonly kind: 'toolCall'; readonly call: ToolCallBlock; readonly part: Part }
  | { readonly kind: 'other'; readonly part: Part };
