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
    const first = transcript('sess-b', ...BEFORE);
    await sessions.store.write(`${INBOX_FOLDER}/sess-b.jsonl`, first);
    await imported.importPending();
    // Copilot only appends: the later copy begins with the earlier one.
    await sessions.store.write(`${INBOX_FOLDER}/sess-b.jsonl`, `${first}${AFTER.map((l) => `${l}\n`).join('')}`);
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

  describe('reading only what a copy gained', () => {
    /** A store that counts the bytes of the inbox's transcripts it hands out, whole or in ranges. */
    function countingStore(): MemoryStore & { bytesRead: () => number; reset: () => void } {
      const store = new MemoryStore();
      let bytes = 0;
      const read = store.read.bind(store);
      const readRange = store.readRange.bind(store);
      const counted = (path: string, text: string | undefined): string | undefined => {
        if (path.endsWith('.jsonl') && text !== undefined) bytes += Buffer.byteLength(text, 'utf8');
        return text;
      };
      store.read = async (path) => counted(path, await read(path));
      store.readRange = async (path, start, length) => counted(path, await readRange(path, start, length));
      return Object.assign(store, { bytesRead: () => bytes, reset: () => (bytes = 0) });
    }
    const many = (n: number): string[] =>
      Array.from({ length: n }, (_, i) =>
        turn(`Step ${i}: look at part ${i} of the build.`, [
          { text: `Part ${i} builds ${'fine '.repeat(40)}`, tool: 'read_file', callId: `r${i}` },
        ]),
      ).flat();

    it('reads two small ranges of a copy that did not grow, and only the added bytes of one that did', async () => {
      const store = countingStore();
      const sessions = registry(store);
      const imported = new CopilotTranscriptImport(sessions, new RecordingLogger());
      const first = transcript('sess-big', ...many(400));
      await store.write(`${INBOX_FOLDER}/sess-big.jsonl`, first);
      await imported.importPending();
      const size = Buffer.byteLength(first, 'utf8');
      assert.ok(store.bytesRead() >= size, 'the first import reads it all');

      store.reset();
      assert.deepEqual((await imported.importPending()).added, {});
      assert.ok(store.bytesRead() <= 1024 + 1, `a copy that did not grow: ${store.bytesRead()} of ${size} bytes read`);

      const more = `${AFTER.map((l) => `${l}\n`).join('')}`;
      await store.write(`${INBOX_FOLDER}/sess-big.jsonl`, `${first}${more}`);
      store.reset();
      assert.equal((await imported.importPending()).added['sess-big.jsonl'], 1);
      const added = Buffer.byteLength(more, 'utf8');
      assert.ok(store.bytesRead() <= 1024 + 1 + 2 * added, `${store.bytesRead()} bytes read for ${added} added`);
      const session = await sessions.get((await imported.sessionIds())[0]);
      assert.equal((await session?.readArchive())?.length, 400 * 3 + 1, 'every message once');
    });

    it('names the result of a call an earlier copy requested by its tool', async () => {
      const sessions = registry();
      const imported = new CopilotTranscriptImport(sessions, new RecordingLogger());
      const call = turn('Read the config.', [{ text: 'Reading it.', tool: 'read_file', callId: 'cfg-1' }]);
      const complete = call.findIndex((l) => l.includes('tool.execution_complete'));
      const first = transcript('sess-open', ...call.slice(0, complete));
      await sessions.store.write(`${INBOX_FOLDER}/sess-open.jsonl`, first);
      await imported.importPending();
      await sessions.store.write(
        `${INBOX_FOLDER}/sess-open.jsonl`,
        `${first}${call
          .slice(complete)
          .map((l) => `${l}\n`)
          .join('')}`,
      );
      await imported.importPending();
      const archived = (await (await sessions.get((await imported.sessionIds())[0]))?.readArchive()) ?? [];
      const result = archived.flatMap((m) => m.blocks).find((b) => b.type === 'toolResult');
      assert.equal(result?.type === 'toolResult' ? result.toolName : undefined, 'read_file');
    });

    it('takes a copy that begins otherwise than the one taken as another transcript, into a session of its own', async () => {
      const sessions = registry();
      const imported = new CopilotTranscriptImport(sessions, new RecordingLogger());
      await sessions.store.write(`${INBOX_FOLDER}/sess-g.jsonl`, transcript('sess-g', ...BEFORE));
      await imported.importPending();
      await sessions.store.write(`${INBOX_FOLDER}/sess-g.jsonl`, transcript('sess-g', ...BEFORE, ...AFTER));
      assert.equal((await imported.importPending()).added['sess-g.jsonl'], 4, 'read from its start');
      assert.equal(sessions.created(), 2);
    });

    it('goes on from the line count an older record kept, without taking its lines twice', async () => {
      const sessions = registry();
      const first = transcript('sess-h', ...BEFORE);
      await sessions.store.write(`${INBOX_FOLDER}/sess-h.jsonl`, first);
      await new CopilotTranscriptImport(sessions, new RecordingLogger()).importPending();
      const progress = JSON.parse((await sessions.store.read(`${INBOX_FOLDER}/imported.json`)) ?? '{}') as {
        transcripts: Record<string, { sessionId: string; lines: number }>;
      };
      const { sessionId, lines } = progress.transcripts['sess-h.jsonl'];
      const older = { schemaVersion: 1, transcripts: { 'sess-h.jsonl': { sessionId, lines } } };
      await sessions.store.write(`${INBOX_FOLDER}/imported.json`, JSON.stringify(older));
      await sessions.store.write(`${INBOX_FOLDER}/sess-h.jsonl`, `${first}${AFTER.map((l) => `${l}\n`).join('')}`);
      const imported = new CopilotTranscriptImport(sessions, new RecordingLogger());
      assert.equal((await imported.importPending()).added['sess-h.jsonl'], 1);
      assert.equal(sessions.created(), 1);
      assert.equal((await (await sessions.get(sessionId))?.readArchive())?.length, 4);
    });
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
