import * as assert from 'node:assert/strict';
import { keepingCause } from '../../../src/engine/text/errorCause';
import { errorSummary } from '../../../src/engine/ledger/errorSummary';

describe('a long error line cut so that its cause stays', () => {
  const wrapped =
    'Error: publish of package ledger-core to registry npm.internal.example aborted after 2 attempts: upload tarball: ' +
    'PUT https://npm.internal.example/ledger-core: 413 Payload Too Large: tarball exceeds the 10 MB limit';

  it('keeps what failed at the start and the last wrapped parts that fit, with an ellipsis between', () => {
    const kept = keepingCause(wrapped, 160);
    assert.ok(kept);
    assert.ok(kept.text.length <= 160, kept.text);
    assert.ok(kept.text.startsWith('Error: publish of package ledger-core'), kept.text);
    assert.ok(kept.text.endsWith('413 Payload Too Large: tarball exceeds the 10 MB limit'), kept.text);
    assert.ok(kept.text.includes(' … '), kept.text);
    assert.ok(wrapped.endsWith(kept.cause), 'the cause is as written');
    // The earliest part that fits is taken: the longest cause.
    assert.equal(
      kept.cause,
      'upload tarball: PUT https://npm.internal.example/ledger-core: 413 Payload Too Large: tarball exceeds the 10 MB limit',
    );
  });

  it('cuts the start at a word, not inside one', () => {
    const kept = keepingCause(wrapped, 140);
    assert.ok(kept);
    const head = kept.text.slice(0, kept.text.indexOf(' … '));
    assert.ok(wrapped.startsWith(head), head);
    assert.ok([' ', ':'].includes(wrapped[head.length]), `cut after "${head}"`);
  });

  it('never takes a colon inside a quoted value for a wrapped part, and an apostrophe in a word opens no quote', () => {
    const type = `'{ ${Array.from({ length: 12 }, (_, i) => `readonly field${i}: { readonly label: "Field ${i}"; readonly default: string; }`).join('; ')} }'`;
    const compiler = `src/settings.ts:41:7 - error TS2345: Argument of type ${type} is not assignable to parameter of type 'Options'.`;
    // Every colon after the message's start is inside the quoted type: no part of the line is a cause to keep.
    assert.equal(keepingCause(compiler, 240), undefined);
    assert.ok(errorSummary(compiler).startsWith("src/settings.ts:41:7 - error TS2345: Argument of type '{ readonly field0: {"));
    const wrappedWithApostrophe = `sync worker can't finish the nightly export of ${'account ledgers '.repeat(12)}: open export.lock: permission denied`;
    assert.equal(keepingCause(wrappedWithApostrophe, 160)?.cause, 'open export.lock: permission denied');
  });

  it('never takes a colon inside a record a validator prints for a wrapped part', () => {
    const record = `{'id': 'o-17', 'items': [{'sku': 'A-1', 'qty': 0}], 'note': 'gift: wrap it', ${"'tags': ['a', 'b'], ".repeat(6)}}`;
    const validator =
      'ValidationError: 1 validation error for OrderCreate shipping_address Field required ' +
      `[type=missing, input_value=${record}, input_type=dict]`;
    assert.equal(keepingCause(validator, 240), undefined, 'every colon after the message is inside a bracket');
    const chained = `deploy orders: render values (chart orders-${'x'.repeat(200)}): open values.yaml: permission denied`;
    assert.equal(keepingCause(chained, 160)?.cause, 'open values.yaml: permission denied');
  });

  it('leaves a line that fits, one without wrapped parts, and one whose last part alone is too long', () => {
    assert.equal(keepingCause('Error: short enough: fine', 160), undefined);
    assert.equal(keepingCause(`TypeError ${'x'.repeat(300)}`, 160), undefined);
    assert.equal(keepingCause(`failed: ${'one very long reason '.repeat(20)}`, 160), undefined);
  });

  it('keeps the cause of a line of a million characters, as of a short one', () => {
    const huge = `${'retry stage: '.repeat(80_000)}disk quota exceeded on volume data-7`;
    const kept = keepingCause(huge, 240);
    assert.ok(kept);
    assert.ok(kept.text.length <= 240, `${kept.text.length}`);
    assert.ok(kept.text.startsWith('retry stage: '));
    assert.ok(kept.text.endsWith('disk quota exceeded on volume data-7'), kept.text);
  });
});
