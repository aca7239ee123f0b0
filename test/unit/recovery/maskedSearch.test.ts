import * as assert from 'node:assert/strict';
import { readOffloaded } from '../../../src/engine/recovery/readOffloaded';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { SESSION, offloadedPath } from './fixtures';

const PASSWORD = 'Tr0ub4dor-and-3';
const TOKEN = 'ghp_R7kPq2ZxW9mLt4VbN8cYh3JsD6fGa1UeQ0oE';
const KEY_LINES = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw',
  '-----END RSA PRIVATE KEY-----',
];

describe('recovery search: credentials', () => {
  async function stored(): Promise<MemoryStore> {
    const store = new MemoryStore();
    const lines = [
      'deploy notes',
      `export DB_PASSWORD=${PASSWORD}`,
      `export GITHUB_TOKEN=${TOKEN}`,
      ...KEY_LINES,
      'then restart the billing worker',
    ];
    await store.write(offloadedPath('env.txt'), `${lines.join('\n')}\n`);
    return store;
  }

  it('returns credentials masked, whatever the query asks for', async () => {
    const index = await RecoveryIndex.build(await stored(), SESSION);
    for (const query of ['DB_PASSWORD', 'GITHUB_TOKEN', 'PRIVATE KEY', PASSWORD, TOKEN]) {
      for (const hit of await index.search(query)) {
        assert.ok(
          !hit.excerpt.includes(PASSWORD) && !hit.excerpt.includes(TOKEN) && !hit.excerpt.includes(KEY_LINES[1]),
          `${query}: ${hit.excerpt}`,
        );
      }
    }
    const [hit] = await index.search('DB_PASSWORD');
    assert.match(hit.excerpt, /DB_PASSWORD=\[masked password\]/);
  });

  it('keeps the line numbers of what follows a masked key', async () => {
    const index = await RecoveryIndex.build(await stored(), SESSION);
    const [hit] = await index.search('billing worker');
    assert.equal(hit.matchLine, 7);
  });

  it('leaves the original one step away: the offloaded file the hit names', async () => {
    const store = await stored();
    const [hit] = await (await RecoveryIndex.build(store, SESSION)).search('DB_PASSWORD');
    const original = await readOffloaded(store, SESSION, hit.location?.file ?? '');
    assert.ok(original.text.includes(`DB_PASSWORD=${PASSWORD}`));
  });
});
