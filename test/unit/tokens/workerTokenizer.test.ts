import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { LocalTokenizer } from '../../../src/engine/tokens/localTokenizer';
import { TokenizerDisposedError, WorkerTokenizer } from '../../../src/engine/tokens/worker/workerTokenizer';
import { WarningLog } from './fakeTokenizers';

/** The worker as tsc compiles it (out/src/engine/tokens/worker/tokenizerWorker.js); it reads ranks from js-tiktoken. */
const COMPILED_WORKER = path.resolve(__dirname, '../../../src/engine/tokens/worker/tokenizerWorker.js');
/** Exits as soon as it starts, like a worker killed before it could build. */
const EXITING_WORKER = path.resolve(__dirname, 'exitingWorker.js');

describe('WorkerTokenizer', function () {
  this.timeout(20_000);
  const texts = ['Hello, world!', '<|endoftext|>', '中文 text 😀', 'a'.repeat(5_000)];
  let expected: number[];
  const opened: WorkerTokenizer[] = [];

  before(async () => {
    expected = await new LocalTokenizer('o200k_base').countMany(texts);
  });
  after(() => opened.forEach((tokenizer) => tokenizer.dispose()));

  function open(workerPath: string, log = new WarningLog()): WorkerTokenizer {
    const tokenizer = new WorkerTokenizer({ workerPath, encoding: 'o200k_base', logger: log });
    opened.push(tokenizer);
    return tokenizer;
  }

  it('starts the worker lazily and becomes ready once it has built the encoder', async () => {
    const tokenizer = open(COMPILED_WORKER);
    assert.equal(tokenizer.ready, false);
    await tokenizer.whenReady();
    assert.equal(tokenizer.ready, true);
  });

  it('counts in the worker exactly as in process, answering calls made together separately', async () => {
    const tokenizer = open(COMPILED_WORKER);
    const [first, second, none] = await Promise.all([
      tokenizer.countMany(texts.slice(0, 2)),
      tokenizer.countMany(texts.slice(2)),
      tokenizer.countMany([]),
    ]);
    assert.deepEqual([...first, ...second], expected);
    assert.deepEqual(none, []);
  });

  it('falls back to counting in process, and logs it, when the worker file is missing', async () => {
    const log = new WarningLog();
    const tokenizer = open(path.join(__dirname, 'no-such-worker.js'), log);
    assert.deepEqual(await tokenizer.countMany(texts), expected);
    await tokenizer.whenReady();
    assert.equal(tokenizer.ready, true);
    assert.equal(log.warnings.length, 1);
  });

  it('falls back to counting in process when the worker dies before it is ready', async () => {
    const log = new WarningLog();
    const tokenizer = open(EXITING_WORKER, log);
    const ready = tokenizer.whenReady();
    assert.deepEqual(await tokenizer.countMany(texts), expected);
    await ready;
    assert.match(log.warnings[0], /exited/);
  });

  it('rejects calls still waiting when disposed', async () => {
    const tokenizer = open(COMPILED_WORKER);
    const waiting = tokenizer.countMany(texts);
    tokenizer.dispose();
    await assert.rejects(waiting, TokenizerDisposedError);
    await assert.rejects(tokenizer.countMany(texts), TokenizerDisposedError);
  });
});
