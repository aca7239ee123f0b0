/**
 * Writes an answer's summary into the chat, once, at the end of the answer: one line per kind of thing ctx
 * did (with a count), the warnings once per kind, the reliability warning, and the offer of a fresh
 * session when the context went CRITICAL. Progress while the work runs goes through `stream.progress`.
 */
import * as vscode from 'vscode';
import { renderAnswerSummary } from '../engine/host/display';
import type { AnswerActivity } from '../engine/host/session';
import { COMMANDS } from './commandIds';
import { DETAILS_COMMAND, detailsLink } from './detailsLink';

export interface AnswerSummaryOptions {
  readonly sessionId: string;
  /** The reliability warning (design §9), shown when the answer made a checkpoint and the score is low. */
  readonly reliabilityWarning?: string;
}

export function writeAnswerSummary(stream: vscode.ChatResponseStream, answer: AnswerActivity, options: AnswerSummaryOptions): void {
  const text = renderAnswerSummary(answer.summary(), detailsLink(options.sessionId));
  const paragraphs = [
    ...text.lines,
    ...(text.critical ? [text.critical] : []),
    ...text.warnings.map(quote),
    ...(options.reliabilityWarning ? [quote(options.reliabilityWarning)] : []),
  ];
  if (paragraphs.length === 0) return;
  const markdown = new vscode.MarkdownString(`\n\n---\n\n${paragraphs.join('\n\n')}\n\n`);
  markdown.isTrusted = { enabledCommands: [DETAILS_COMMAND] };
  stream.markdown(markdown);
  if (text.critical) {
    stream.button({ command: COMMANDS.freshSession, title: 'Start a fresh session from the checkpoint', arguments: [options.sessionId] });
  }
}

function quote(text: string): string {
  return `> ${text.split('\n').join('\n> ')}`;
}
