import * as assert from 'node:assert/strict';
import { messageText, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';

/** A render farm's job log: a header, one progress row per frame, a closing tally. */
function renderLog(job: number, frames: number): string {
  const rows = Array.from({ length: frames }, (_, i) => `frame ${i} of scene_${job} rendered on node-${i % 11} in ${40 + (i % 17)} ms`);
  return [`farmctl 3.2 job ${job} on queue gpu-west`, ...rows, `Job ${job} done: ${frames} frames, 0 dropped`].join('\n');
}

/** Jobs whose logs are each above a twentieth of the budget, so each goes to a file as it arrives, then later work. */
function farmSession(): Message[] {
  const messages: Message[] = [user('Render the trailer scenes on the farm and tell me which ones dropped frames.')];
  for (let job = 1; job <= 12; job++) {
    messages.push(call(`j${job}`, 'shell', { command: `farmctl render --scene ${job}` }, `Rendering scene ${job}.`));
    messages.push(result(`j${job}`, renderLog(job, 90 + job * 5)));
    messages.push(assistant(`Scene ${job} rendered without drops.`));
  }
  return messages;
}

describe("ctx's note on a result it offloaded, as a summarized span's copy holds it", () => {
  it('is never a fact, an outcome, an earlier line or the first line of a summary of what ran', async () => {
    const messages = farmSession();
    const { final, figures, session } = await replayAtShareOfInput(messages, { share: 0.25, plusTokens: 2_048 });
    session.dispose();
    assert.ok(figures.offloaded > 0 && figures.checkpoints > 0, 'results went to files and a checkpoint summarized them');
    const contextMessage = messageText(final?.messages[0] ?? user(''));
    const note = /\[[^\]\n]* result of [\d,]+ tokens, offloaded to /;
    const quoting = contextMessage.split('\n').filter((line) => note.test(line));
    assert.deepEqual(quoting, [], 'no line of the context message quotes the note');
    assert.match(contextMessage, /farmctl 3\.2 job \d+ on queue gpu-west/, "what ran is summed up by the output's own lines");
  });
});
