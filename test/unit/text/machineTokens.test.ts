import * as assert from 'node:assert/strict';
import { holdsMachineToken } from '../../../src/engine/text/machineTokens';

describe('tokens a machine made', () => {
  it('finds a long run mixed in case and with digits: a signed redirect, a presigned signature', () => {
    const key = 'AUZkq7Rw2mP9xT4vB8nL0cY6hJ3sD5fG1aQ7eW9rT2yU4iO6pA8sD0fG2hJ4kL6zX8cV0bN2mQ4wE6rT8yU0iO2pA4s';
    assert.equal(holdsMachineToken(`https://search.example.net/redirect/${key}`), true);
    assert.equal(
      holdsMachineToken('https://files.example.net/a.csv?sig=Xk2_pQ9-zR4mT7vB1nL8cY3hJ6sD0fG5aQ2eW4rT7yU9iO1pA3sD6fG8hJ0kL2zW5'),
      true,
    );
  });

  it("finds none in what people name: a page's path, a document's id, a commit hash, a long word", () => {
    assert.equal(holdsMachineToken('https://docs.example.org/ledger/rounding-rules-for-half-even-amounts-in-every-currency'), false);
    assert.equal(holdsMachineToken('https://docs.google.example/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit'), false);
    assert.equal(
      holdsMachineToken(
        'commit 9c4e1f2a7b3d5e6f8a9b0c1d2e3f4a5b6c7d8e9f and 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      ),
      false,
    );
    assert.equal(holdsMachineToken('a'.repeat(80)), false);
  });
});
