import * as assert from 'node:assert/strict';
import { CopilotTranscriptImport, INBOX_FOLDER } from '../../../src/copilotHook/transcriptImport';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { ContextSession } from '../../../src/engine/session/contextSession';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { RecordingLogger } from '../support/fakes';
import { fakeSessionDeps } from '../support/session';
import { entry, transcript, turn } from './copilotTranscripts';

/** A session registry over one store, as the extension's SessionManager offers it to the import. */
function registry(store = new MemoryStore()) {
  const open = new Map<string, ContextSession>();
  let made = 0;
  return {
    store,
    created: () => made,
    async create() {
      made++;
      const session = ContextSession.create(
        DEFAULT_OPTIONS,
        fakeSessionDeps(store),
        `s-20261120-1000${String(made).padStart(2, '0')}-copilot`,
      );
      open.set(session.id, session);
      return session;
    },
    async get(id: string) {
      return open.get(id) ?? (await ContextSession.open(id, DEFAULT_OPTIONS, fakeSessionDeps(store)));
    },
  };
}

const BEFORE = turn('Set up the nightly job.', [
  { text: 'The nightly job runs on host quartz-17 at 02:40.', tool: 'create_file', args: { path: 'cron/nightly.yml' }, callId: 'c1' },
]);
const AFTER = [entry('assistant.message', { content: 'Now checking the logs.', toolRequests: [] })];

describe("Copilot's transcripts taken into ctx sessions", () => {
  it('puts a transcript the hook copied into one ctx session, where search finds what it said', async () => {
    const sessions = registry();
    await sessions.store.write(`${INBOX_FOLDER}/sess-a.jsonl`, transcript('sess-a', ...BEFORE));
    const imported = new CopilotTranscriptImport(sessions, new RecordingLogger());
    const report = await imported.importPending();
    assert.deepEqual(report.problems, []);
    assert.equal(report.added['sess-a.jsonl'], 3, 'the request, the call and its result');
    const [id] = await imported.sessionIds();
    const session = await sessions.get(id);
    assert.equal(session?.title, 'Set up the nightly job.', "titled by the user's request");
    const [hit] = await (await RecoveryIndex.build(sessions.store, [id])).search('quartz-17');
    assert.ok(hit, 'the fact is searchable');
    assert.match(hit.excerpt, /quartz-17 at 02:40/);
  });

  it('adds only the new lines of a later copy to the same session, and nothing when it did not grow', async () => {
    const sessions = registry();
    const imported = new CopilotTranscriptImport(sessions, new RecordingLogger());
    await sessions.store.write(`${INBOX_FOLDER}/sess-b.jsonl`, transcript('sess-b', ...BEFORE));
    await imported.importPending();
    await sessions.store.write(`${INBOX_FOLDER}/sess-b.jsonl`, transcript('sess-b', ...BEFORE, ...AFTER));
    const second = await imported.importPending();
    assert.equal(second.added['sess-b.jsonl'], 1);
    assert.deepEqual((await imported.importPending()).added, {}, 'nothing new, nothing added');
    assert.equal(sessions.created(), 1, 'one ctx session for the Copilot session');
    const session = await sessions.get((await imported.sessionIds())[0]);
    const archived = (await session?.readArchive()) ?? [];
    assert.equal(archived.length, 4, 'every message once');
  });

  it('remembers what it took across restarts (a new import over the same storage)', async () => {
    const store = new MemoryStore();
    await store.write(`${INBOX_FOLDER}/sess-c.jsonl`, transcript('sess-c', ...BEFORE));
    await new CopilotTranscriptImport(registry(store), new RecordingLogger()).importPending();
    const again = registry(store);
    const report = await new CopilotTranscriptImport(again, new RecordingLogger()).importPending();
    assert.deepEqual(report.added, {});
    assert.equal(again.created(), 0);
  });

  it('takes only the JSON Lines files of the inbox', async () => {
    const sessions = registry();
    await sessions.store.write(`${INBOX_FOLDER}/notes.txt`, transcript('notes', ...BEFORE));
    await sessions.store.write(`${INBOX_FOLDER}/sess-d.jsonl`, transcript('sess-d', ...BEFORE));
    const report = await new CopilotTranscriptImport(sessions, new RecordingLogger()).importPending();
    assert.deepEqual(Object.keys(report.added), ['sess-d.jsonl']);
    assert.equal(sessions.created(), 1);
  });

  it('puts a result Copilot wrote to a file in place of the missing one, and says why when it cannot', async () => {
    const sessions = registry();
    await sessions.store.write(`${INBOX_FOLDER}/sess-e.jsonl`, transcript('sess-e', ...BEFORE));
    const asked: string[] = [];
    const logger = new RecordingLogger();
    const imported = new CopilotTranscriptImport(sessions, logger, async (session, callId) => {
      asked.push(`${session}/${callId}`);
      return { text: 'wrote cron/nightly.yml: schedule "40 2 * * *", runner pool amber-9' };
    });
    await imported.importPending();
    assert.deepEqual(asked, ['sess-e/c1']);
    const [id] = await imported.sessionIds();
    const [hit] = await (await RecoveryIndex.build(sessions.store, [id])).search('amber-9');
    assert.ok(hit, 'the written result is searchable');

    const failing = registry();
    await failing.store.write(`${INBOX_FOLDER}/sess-f.jsonl`, transcript('sess-f', ...BEFORE));
    const warned = new RecordingLogger();
    await new CopilotTranscriptImport(failing, warned, async () => ({ problem: 'the file is binary, not text' })).importPending();
    assert.ok(warned.has('warn', /create_file that Copilot wrote to a file is not archived: the file is binary, not text/));
  });

  it('reports an inbox it cannot read as a problem instead of failing the search that asked', async () => {
    const store = new MemoryStore();
    store.list = async () => {
      throw new Error('permission denied');
    };
    const logger = new RecordingLogger();
    const report = await new CopilotTranscriptImport(registry(store), logger).importPending();
    assert.deepEqual(report.problems, [`in ${INBOX_FOLDER}: permission denied`]);
    assert.ok(logger.has('warn', /Could not archive Copilot's transcript in copilot-transcripts: permission denied/));
  });
});
