/**
 * The tokenizer worker thread: builds the encoder named in `workerData` once, then answers count
 * requests. Building takes hundreds of milliseconds and counting a long conversation tens, so
 * both stay off the extension host's thread. Protocol: workerProtocol.ts.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { BpeTokenCounter } from '../bpe';
import { isRankData } from '../rankData';
import { rankLoaderFor } from './rankFiles';
import { isCountRequest, isWorkerStart, type WorkerReply } from './workerProtocol';
import { errorMessage } from '../../errors';

function build(port: MessagePort): BpeTokenCounter | undefined {
  const started = performance.now();
  try {
    if (!isWorkerStart(workerData)) throw new Error('The tokenizer worker was started without an encoding');
    const data = rankLoaderFor(__dirname)(workerData.encoding);
    if (!isRankData(data)) throw new Error(`Rank data for ${workerData.encoding} has an unexpected shape`);
    const counter = new BpeTokenCounter(data);
    post(port, { type: 'built', buildMs: performance.now() - started });
    return counter;
  } catch (error) {
    post(port, { type: 'buildFailed', message: errorMessage(error) });
    return undefined;
  }
}

function serve(port: MessagePort, counter: BpeTokenCounter): void {
  port.on('message', (request: unknown) => {
    if (!isCountRequest(request)) return;
    try {
      post(port, { type: 'counts', id: request.id, counts: request.texts.map((text) => counter.count(text)) });
    } catch (error) {
      post(port, { type: 'countFailed', id: request.id, message: errorMessage(error) });
    }
  });
}

function post(port: MessagePort, reply: WorkerReply): void {
  port.postMessage(reply);
}

// Requests that arrive while the encoder builds wait in the port's queue until `serve` listens.
if (parentPort !== null) {
  const counter = build(parentPort);
  if (counter !== undefined) serve(parentPort, counter);
}
