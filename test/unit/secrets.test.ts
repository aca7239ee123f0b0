import * as assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { maskSecrets, maskSecretsCounted } from '../../src/engine/text/secrets';
import { seededRandom } from './tokens/seededRandom';

/** A random string of the alphabet, seeded, so each test run sees the same "credentials". */
function randomOf(alphabet: string, length: number, seed: number): string {
  const random = seededRandom(seed);
  return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

describe('masking secrets', () => {
  const cases: readonly (readonly [string, string, RegExp])[] = [
    ['an OpenAI key', `OPENAI_API_KEY=sk-proj-${randomOf(ALNUM, 48, 1)}`, /OPENAI_API_KEY=\[masked (OpenAI key|secret)\]/],
    ['an Anthropic key', `key sk-ant-api03-${randomOf(ALNUM, 40, 2)} used`, /key \[masked Anthropic key\] used/],
    ['a GitHub token', `token: ghp_${randomOf(ALNUM, 36, 3)}`, /\[masked GitHub token\]/],
    ['a fine-grained GitHub token', `github_pat_${randomOf(ALNUM, 60, 4)}`, /^\[masked GitHub token\]$/],
    ['a GitLab token', `glpat-${randomOf(ALNUM, 20, 5)}`, /^\[masked GitLab token\]$/],
    ['a Slack token', `xoxb-${randomOf('0123456789', 12, 6)}-${randomOf(ALNUM, 24, 7)}`, /^\[masked Slack token\]$/],
    [
      'an AWS access key id',
      `aws_access_key_id = AKIA${randomOf(UPPER_DIGITS, 16, 8)}`,
      /aws_access_key_id = \[masked (AWS access key id|secret)\]/,
    ],
    ['an AWS secret key', `aws_secret_access_key = ${randomOf(`${ALNUM}/+`, 40, 9)}`, /aws_secret_access_key = \[masked secret\]/],
    ['a bearer token', `Authorization: Bearer ${randomOf(ALNUM, 32, 10)}`, /Authorization: Bearer \[masked bearer token\]/],
    ['a password assignment', 'db password=hunter2!x in the config', /db password=\[masked password\] in the config/],
    ['a quoted password in JSON', '{"password": "c0rrect-h0rse"}', /\{"password": "\[masked password\]"\}/],
    ['a password in a URL', 'postgres://admin:s3cr3tPass@db:5432/app', /postgres:\/\/admin:\[masked password in a URL\]@db:5432\/app/],
    ['a JSON web token', `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${randomOf(ALNUM, 43, 11)}`, /^\[masked JSON web token\]$/],
    [
      'a private key block',
      `before\n-----BEGIN RSA PRIVATE KEY-----\n${randomOf(ALNUM, 64, 12)}\n-----END RSA PRIVATE KEY-----\nafter`,
      /^before\n\[masked private key\]\nafter$/,
    ],
    ['a random value of a key-like name', `client_secret: "${randomOf(ALNUM, 32, 13)}"`, /client_secret: "\[masked secret\]"/],
    ['a UUID assigned to a token name', `session_token=${randomUUID()}`, /session_token=\[masked secret\]/],
  ];
  for (const [what, text, expected] of cases) {
    it(`masks ${what}`, () => {
      const masked = maskSecrets(text);
      assert.match(masked, expected);
    });
  }

  it('leaves hashes, UUIDs and base64 file content alone when no key-like name goes with them', () => {
    const sha = createHash('sha256').update('x').digest('hex');
    const text = [
      `commit ${createHash('sha1').update('y').digest('hex')}`,
      `sha256: ${sha}`,
      `request id ${randomUUID()}`,
      `"integrity": "sha512-${Buffer.from(randomOf(ALNUM, 60, 14)).toString('base64')}"`,
      Buffer.from(randomOf(ALNUM, 300, 15)).toString('base64'),
      '"max_tokens": 4096, "tokenizer": "o200k_base", "input_tokens": 123456789012345678',
      'password = input("Password: ")',
      'Set the password: ${DB_PASSWORD}',
      'the secret_name is production-database-primary',
    ].join('\n');
    const { text: out, masked } = maskSecretsCounted(text);
    assert.equal(masked, 0, out);
    assert.equal(out, text);
  });

  it('counts what it masked and masks each occurrence', () => {
    const token = `ghp_${randomOf(ALNUM, 36, 16)}`;
    const { text, masked } = maskSecretsCounted(`${token} and again ${token}`);
    assert.equal(masked, 2);
    assert.ok(!text.includes(token));
  });
});
