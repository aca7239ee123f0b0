import * as assert from 'node:assert/strict';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';
import { renderContext } from '../../../src/cli/replay/renderContext';
import { seededRandom } from '../tokens/seededRandom';

const MODULES = 60;

/**
 * A session that styles page after page, unlike the shared transcripts: for each page the agent fetches it (a page of
 * markup), shows its stylesheet with `cat`, edits it and pushes. What each push came to is one line (`a1b2c3d..e4f5a6b
 * main -> main`) among the many lines of code the other commands printed.
 */
function stylingSession(seed: number): { messages: Message[]; pushes: string[] } {
  const next = seededRandom(seed);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(next() * 16)]).join('');
  const messages: Message[] = [user('Fix the spacing of every module page, check each one live, and push each fix.')];
  const pushes: string[] = [];
  for (let i = 0; i < MODULES; i++) {
    const page = [
      '<!DOCTYPE html>',
      '<html lang="en">',
      '<head>',
      '  <meta charset="UTF-8" />',
      `  <title>module ${i}</title>`,
      '</head>',
      '<body>',
      ...Array.from({ length: 30 + Math.floor(next() * 30) }, (_, k) => `  <div class="m${i}-row-${k}"><span>row ${k}</span></div>`),
      '</body>',
      '</html>',
    ];
    const sheet = [
      `.m${i} {`,
      ...Array.from({ length: 20 + Math.floor(next() * 20) }, (_, k) => `  --m${i}-c${k}: #${hex(6)};`),
      '}',
      `.m${i}-header {`,
      '  display: grid;',
      '  gap: 4px;',
      '}',
    ];
    const push = `${hex(7)}..${hex(7)}  main -> main`;
    pushes.push(push);
    messages.push(assistant(`Checking module ${i}.`));
    messages.push(call(`p${i}`, 'bash', { command: `curl -s https://staging.example.app/m${i}` }));
    messages.push(result(`p${i}`, page.join('\n')));
    messages.push(call(`s${i}`, 'bash', { command: `cat web/m${i}.css | head -60` }));
    messages.push(result(`s${i}`, sheet.join('\n')));
    messages.push(call(`g${i}`, 'bash', { command: `git commit -am "Fix m${i} spacing" && git push` }));
    messages.push(
      result(`g${i}`, [`[main ${hex(7)}] Fix m${i} spacing`, ' 1 file changed, 1 insertion(+), 1 deletion(-)', `   ${push}`].join('\n')),
    );
    messages.push(assistant('Pushed; next page.'));
  }
  return { messages, pushes };
}

describe('replaying a session whose commands print code beside the lines that say what a step came to', () => {
  for (const seed of [1, 2]) {
    it(`shows no line of the markup and styles the commands printed, and keeps every push's line, at a quarter of the input (seed ${seed})`, async () => {
      const { messages, pushes } = stylingSession(seed);
      const { final, figures } = await replayAtShareOfInput(messages, { share: 0.25 });
      assert.ok(figures.checkpoints > 0, 'the session was compressed');
      const context = renderContext(final?.messages ?? [], {
        tokens: figures.finalTokens,
        budget: figures.budget,
        level: figures.finalLevel,
      });
      const code = context.split('\n').filter((line) => /^- (?:<|\.m\d+|--m\d+|display:|gap:|\})/.test(line));
      assert.deepEqual(code, [], 'lines of code shown as what a command came to');
      const lost = pushes.filter((p) => !context.includes(p));
      assert.deepEqual(lost, [], `${lost.length} of ${pushes.length} lost; ${figures.finalTokens} of ${figures.budget} tokens`);
    });
  }
});
