import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { readOffloaded } from '../../../src/engine/recovery/readOffloaded';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TRANSCRIPTS_FOLDER } from '../support/repository';
import { SESSION, offloadedPath } from './fixtures';

const CLINE_SESSION = path.join(TRANSCRIPTS_FOLDER, 'cline__sdk_session.messages.json');

describe('recovery search: a real transcript offloaded as raw text', () => {
  it('finds a distinctive string of a Cline SDK session on a line that has it, and reads that line back', async function () {
    const raw = fs.readFileSync(CLINE_SESSION, 'utf8');
    const store = new MemoryStore();
    await store.write(offloadedPath('cline_session.json'), raw);
    const index = await RecoveryIndex.build(store, SESSION);

    const needle = 'sidebarText';
    const linesWithNeedle = raw.split('\n').flatMap((text, i) => (text.includes(needle) ? [i + 1] : []));
    const [best] = await index.search(needle);
    assert.ok(best, 'the string is found');
    assert.equal(best.location?.file, offloadedPath('cline_session.json'));
    assert.match(best.excerpt, /sidebarText/);
    const line = best.matchLine ?? 0;
    assert.ok(linesWithNeedle.includes(line), `line ${line} is one of ${linesWithNeedle.join(', ')}`);
    assert.ok(best.location && best.location.startLine <= line && line <= best.location.endLine);
    const read = await readOffloaded(store, SESSION, 'cline_session.json', { startLine: line, endLine: line, lineNumbers: false });
    assert.match(read.text, /sidebarText/);
  });

  it('finds words of a file the transcript carries as a JSON-escaped string', async function () {
    const store = new MemoryStore();
    await store.write(offloadedPath('cline_session.json'), fs.readFileSync(CLINE_SESSION, 'utf8'));
    const hits = await (await RecoveryIndex.build(store, SESSION)).search('ChevronDown');
    assert.ok(hits.length > 0);
    assert.match(hits[0].excerpt, /ChevronDown/);
  });
});
