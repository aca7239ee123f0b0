import * as assert from 'node:assert/strict';
import { endsInSearch, isSearchHit, printsSearchHits } from '../../../src/engine/ledger/searchPrograms';

describe('the programs that search files for lines', () => {
  it("takes the call's exit status as a search's only when a search program runs last", () => {
    assert.ok(endsInSearch(['cd api && LC_ALL=C grep -rn retry src']));
    assert.ok(endsInSearch(['git grep -n "retry_after"']));
    assert.ok(!endsInSearch(['grep -rn retry src | head -20']));
    assert.ok(!endsInSearch(['rg retry && make test']));
  });

  it('reads an output as hits when a search runs in the last pipeline, alone or trimmed by what follows it', () => {
    assert.ok(printsSearchHits(['grep -rn retry src | sort | head -20']));
    assert.ok(printsSearchHits(['cd api && sudo rg -n "retry_after"']));
    assert.ok(printsSearchHits(['make lint', 'ag --nocolor quota lib']));
    assert.ok(!printsSearchHits(['grep -q retry src/a.ts && npm test']), 'a search before the command that printed last');
    assert.ok(!printsSearchHits(['npm test 2>&1 | tee out.log']));
    assert.ok(!printsSearchHits(["echo 'grep' | wc -c"]), 'a quoted word is no program');
  });

  it("reads a hit by the place a search prints before a file's line", () => {
    for (const hit of [
      'src/a.ts:12:  throw new Error("not found")',
      'lib/retry.go-40-\t// the call failed with a timeout',
      '12:    expired: "Token expired"',
      '7-  denied: true,',
      'C:\\work\\shop\\README.md:88:If the build fails, run npm ci.',
    ]) {
      assert.ok(isSearchHit(hit), hit);
    }
    for (const other of ['grep: vendor/cache: No such file or directory', 'Binary file dist/app.js matches', 'src/a.ts']) {
      assert.ok(!isSearchHit(other), other);
    }
  });
});
