import * as assert from 'node:assert/strict';
import { hookFileText } from '../../../src/copilotHook/hookFile';
import {
  INSTALL_BUTTON,
  NO_FOLDER_MESSAGE,
  REMOVE_BUTTON,
  toggleHook,
  UNTRUSTED_MESSAGE,
  type HookToggleHost,
  type Question,
} from '../../../src/copilotHook/hookToggle';

const FILE = '/work/app/.github/hooks/ctx-archive-before-compaction.json';
const TEXT = hookFileText({ runtime: '/usr/bin/node', script: '/ext/dist/copilotPreCompactHook.js', inbox: '/store/copilot-transcripts' });

/** A host over one file in memory that answers every question with `answer` and records what happened. */
function host(options: { file?: string | null; trusted?: boolean; existing?: string; answer?: boolean } = {}) {
  const record = { questions: [] as Question[], warnings: [] as string[], content: options.existing, removed: false };
  const fake: HookToggleHost = {
    file: options.file === null ? undefined : (options.file ?? FILE),
    trusted: options.trusted ?? true,
    scriptFolder: '/ext/dist',
    read: async () => record.content,
    write: async (text) => {
      record.content = text;
    },
    remove: async () => {
      record.content = undefined;
      record.removed = true;
    },
    ask: async (q) => {
      record.questions.push(q);
      return options.answer ?? false;
    },
    warn: (m) => record.warnings.push(m),
  };
  return { fake, record };
}

describe('"Archive Copilot\'s history before it compacts"', () => {
  it('writes the hook file only after a yes to a question that names the file and the script', async () => {
    const { fake, record } = host({ answer: true });
    assert.equal(await toggleHook(fake, TEXT), 'installed');
    assert.equal(record.content, TEXT);
    const [question] = record.questions;
    assert.equal(question.yes, INSTALL_BUTTON);
    assert.ok(question.detail.includes(FILE), 'the question says exactly which file is written');
    assert.ok(question.detail.includes('/ext/dist'), 'and where the script it runs is');
    assert.match(question.detail, /no network/);
  });

  it('writes nothing when the user says no or the dialog is refused', async () => {
    const { fake, record } = host({ answer: false });
    assert.equal(await toggleHook(fake, TEXT), 'declined');
    assert.equal(record.content, undefined);
  });

  it('removes its own hook when run again, again only after a yes', async () => {
    const declined = host({ existing: TEXT, answer: false });
    assert.equal(await toggleHook(declined.fake, TEXT), 'declined');
    assert.equal(declined.record.content, TEXT, 'kept on a no');
    const accepted = host({ existing: TEXT, answer: true });
    assert.equal(await toggleHook(accepted.fake, TEXT), 'removed');
    assert.equal(accepted.record.removed, true);
    assert.equal(accepted.record.questions[0].yes, REMOVE_BUTTON);
    assert.ok(accepted.record.questions[0].detail.includes(FILE));
  });

  it("leaves a file of that name that is not ctx's alone, and says so", async () => {
    const theirs = JSON.stringify({ hooks: { PreCompact: [{ type: 'command', command: './save.sh' }] } });
    const { fake, record } = host({ existing: theirs, answer: true });
    assert.equal(await toggleHook(fake, TEXT), 'not-ctx');
    assert.equal(record.content, theirs);
    assert.deepEqual(record.questions, []);
    assert.match(record.warnings[0], /is not ctx's hook/);
  });

  it('says why not, and asks nothing, without a folder or in Restricted Mode', async () => {
    const none = host({ file: null, answer: true });
    assert.equal(await toggleHook(none.fake, TEXT), 'no-folder');
    assert.deepEqual(none.record.warnings, [NO_FOLDER_MESSAGE]);
    assert.match(NO_FOLDER_MESSAGE, /open a folder first.*\.github\/hooks\//);
    const untrusted = host({ trusted: false, answer: true });
    assert.equal(await toggleHook(untrusted.fake, TEXT), 'untrusted');
    assert.deepEqual(untrusted.record.warnings, [UNTRUSTED_MESSAGE]);
    assert.equal(untrusted.record.content, undefined);
    assert.deepEqual([...none.record.questions, ...untrusted.record.questions], []);
  });
});
