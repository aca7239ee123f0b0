/**
 * The cache breakpoint as it crosses `vscode.lm`: a data part of mime type `cache_control` holding `ephemeral`, after
 * the part it closes. This is the marker Copilot Chat's own prompts use, and that its Anthropic models (and other
 * providers that read it) turn into a `cache_control` block; providers that cache by prefix alone skip it. The data
 * part's class is not in the API typings of the oldest VS Code ctx supports, so it is looked up at run time: where a
 * VS Code has none, requests go without breakpoints.
 */
import * as vscode from 'vscode';

export const CACHE_CONTROL_MIME = 'cache_control';
const EPHEMERAL = new TextEncoder().encode('ephemeral');

/** A data part as the API has it. */
interface DataPart {
  readonly mimeType: string;
  readonly data: Uint8Array;
}
type DataPartClass = new (data: Uint8Array, mimeType: string) => DataPart;

const dataPartClass = (vscode as unknown as { readonly LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;

/** The parts a request message may hold, breakpoints included. */
export type PartWithBreakpoint = vscode.LanguageModelInputPart;

/** A new breakpoint part; none where this VS Code has no data parts. */
export function cacheBreakpointParts(): PartWithBreakpoint[] {
  return dataPartClass ? [new dataPartClass(EPHEMERAL, CACHE_CONTROL_MIME) as unknown as PartWithBreakpoint] : [];
}

/** True for a breakpoint part, however it was made (a caller's own, or ctx's). */
export function isCacheBreakpoint(part: unknown): boolean {
  return typeof part === 'object' && part !== null && (part as { mimeType?: unknown }).mimeType === CACHE_CONTROL_MIME;
}
