/**
 * Aider's chat history (`.aider.chat.history.md`), one project's log over all its runs, read as one
 * conversation (Aider can restore it into a new run): what the user typed is the user's, the model's
 * replies (with their SEARCH/REPLACE edits, which Aider applies from the text) are the assistant's,
 * and what Aider printed (files added, edits applied or refused, commands' output, commits, failed model
 * calls, its questions and the answers) is its printed output: injected, and read like a tool's output.
 * The reasoning Aider writes into a reply between its own tags is taken out, as Aider takes it out
 * before the reply goes back to the model. A run's heading gives the time of the messages after it;
 * it is read as UTC, the zone of the machine being unknown.
 */
import { printedTextBlock, textBlock } from '../../engine/host/messages';
import { aiderChunks, runStartedAt } from './aiderChunks';
import type { ImportSink } from './importSink';
import { toEpochMs } from './timestamps';

/** Aider's tag around a model's reasoning in a reply: `thinking-content-` and a fixed hash. */
const REASONING = /<(thinking-content-[0-9a-f]+)>[\s\S]*?<\/\1>/g;

/** Adds the history's pieces, in order, to one session. */
export function importAiderHistory(text: string, sink: ImportSink): void {
  sink.beginSession('main');
  let at: number | undefined;
  for (const chunk of aiderChunks(text)) {
    sink.countRecord();
    const id = `line-${chunk.line}`;
    if (chunk.kind === 'run') {
      at = toEpochMs(runStartedAt(chunk).replace(' ', 'T'));
      sink.skip('run-start');
    } else if (chunk.kind === 'reply') {
      addReply(chunk.text, id, at, chunk.line, sink);
    } else if (chunk.text.trim() === '') {
      sink.skip(`empty-${chunk.kind}`);
    } else {
      const block = chunk.kind === 'user' ? textBlock(chunk.text) : printedTextBlock(chunk.text);
      sink.add(id, [{ role: 'user', blocks: [block] }], at, chunk.line);
    }
  }
}

function addReply(text: string, id: string, at: number | undefined, line: number, sink: ImportSink): void {
  sink.dropThinking(text.match(REASONING)?.length ?? 0);
  const answer = text.replace(REASONING, '').trim();
  if (answer === '') return sink.skip('reasoning-only');
  sink.add(id, [{ role: 'assistant', blocks: [textBlock(answer)] }], at, line);
}
