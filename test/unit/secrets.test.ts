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
  describe("by a provider's shape (gitleaks' rules)", () => {
    const cases: readonly (readonly [string, string, RegExp])[] = [
      ['an OpenAI key', `OPENAI_API_KEY=sk-proj-${randomOf(ALNUM, 48, 1)}`, /^OPENAI_API_KEY=\[masked [^\]]+\]$/],
      ['an Anthropic key', `key sk-ant-api03-${randomOf(ALNUM, 93, 2)}AA used`, /^key \[masked anthropic api key\] used$/],
      ['a GitHub token', `token: ghp_${randomOf(ALNUM, 36, 3)}`, /^token: \[masked github pat\]$/],
      ['a fine-grained GitHub token', `github_pat_${randomOf(ALNUM, 82, 4)}`, /^\[masked github fine grained pat\]$/],
      ['a GitLab token', `glpat-${randomOf(ALNUM, 20, 5)}`, /^\[masked gitlab pat\]$/],
      ['a Slack token', `xoxb-${randomOf('0123456789', 12, 6)}-${randomOf(ALNUM, 24, 7)}`, /^\[masked slack [a-z ]*token\]$/],
      [
        'an AWS access key id',
        `aws_access_key_id = AKIA${randomOf(UPPER_DIGITS, 16, 8)}`,
        /^aws_access_key_id = \[masked aws access token\]$/,
      ],
      ['an AWS secret key', `aws_secret_access_key = ${randomOf(`${ALNUM}/+`, 40, 9)}`, /^aws_secret_access_key = \[masked [^\]]+\]$/],
      ['a JSON web token', `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${randomOf(ALNUM, 43, 11)}`, /^\[masked jwt\]$/],
    ];
    for (const [what, text, expected] of cases) {
      it(`masks ${what}`, () => assert.match(maskSecrets(text), expected));
    }
  });

  describe("by a credential's place (the classes)", () => {
    const secret = randomOf(`${ALNUM}+/`, 40, 20);
    const base64Key = Buffer.from(
      `-----BEGIN RSA PRIVATE KEY-----\n${randomOf(`${ALNUM}+/`, 200, 21)}\n-----END RSA PRIVATE KEY-----\n`,
    ).toString('base64');
    const cases: readonly (readonly [string, string, string])[] = [
      // Names whose last word says the value is a password: any literal value.
      ['a password in an environment line', 'DB_PASSWORD=hunter2', 'hunter2'],
      ['a password of a word in an environment line', 'POSTGRES_PASSWORD=example', 'example'],
      ['a password with more words in the name', 'MYSQL_ROOT_PASSWORD=r00tpw', 'r00tpw'],
      ['a password in one word of a name', 'PGPASSWORD=s3cret psql -h db', 's3cret'],
      ['a quoted password in JSON', '{"db_password": "correct horse"}', 'correct horse'],
      ['a password in a connection string', 'Server=db;Database=app;Pwd=Winter2024!;', 'Winter2024!'],
      // Names whose last word says token, key, secret or auth: a random-looking value, masked to its closing quote.
      [
        'a quoted key holding #',
        `SECRET_KEY = 'k8#2$w!x@7zq#p0m&u9v^r3t*y6e(n1b)c5d+f4gh2j'`,
        'k8#2$w!x@7zq#p0m&u9v^r3t*y6e(n1b)c5d+f4gh2j',
      ],
      [
        'an account key in a connection string',
        `DefaultEndpointsProtocol=https;AccountName=st1;AccountKey=${secret}==;EndpointSuffix=core`,
        `${secret}==`,
      ],
      [
        'the auth of a Docker config',
        `{"auths": {"https://index.docker.io/v1/": {"auth": "${Buffer.from('deploy:Tr0ub4dor3x').toString('base64')}"}}}`,
        Buffer.from('deploy:Tr0ub4dor3x').toString('base64'),
      ],
      ['a client secret', `client_secret: "${randomOf(ALNUM, 32, 13)}"`, randomOf(ALNUM, 32, 13)],
      ['a UUID assigned to a token name', 'session_token=3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e3f', '3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e3f'],
      // Headers and command lines.
      ['basic credentials of an Authorization header', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
      [
        'a token of an Authorization header',
        `Authorization: token ${randomOf('0123456789abcdef', 40, 22)}`,
        randomOf('0123456789abcdef', 40, 22),
      ],
      [
        'a bearer token of letters only in a header',
        'Authorization: Bearer abcdefghijklmnopqrstuvwxyzABCD',
        'abcdefghijklmnopqrstuvwxyzABCD',
      ],
      ['a bearer token', `calling with Bearer ${randomOf(ALNUM, 32, 10)}`, randomOf(ALNUM, 32, 10)],
      ['a --password option', 'mysqldump --user root --password Sup3rS3cret appdb', 'Sup3rS3cret'],
      ['an --api-key= option', `deploy --api-key=${secret} --region eu`, secret],
      ["a MySQL client's -p", 'mysql -uroot -pSup3rS3cret appdb', 'Sup3rS3cret'],
      ["curl's -u user:password", 'curl -u deploy:Tr0ub4dor3x https://api.internal.test', 'Tr0ub4dor3x'],
      ['a password in a URL', 'postgres://admin:s3cr3tPass@db:5432/app', 's3cr3tPass'],
      // Key files and tokens without a rule of their own.
      [
        'a private key block',
        `before\n-----BEGIN RSA PRIVATE KEY-----\n${randomOf(ALNUM, 64, 12)}\n-----END RSA PRIVATE KEY-----\nafter`,
        randomOf(ALNUM, 64, 12),
      ],
      ["a kubeconfig's client-key-data", `users:\n- name: admin\n  user:\n    client-key-data: ${base64Key}`, base64Key],
      [
        "a PuTTY key's private lines",
        'PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nPublic-Lines: 1\nAAAAB3NzaC1yc2EAAAABJQ==\n' +
          `Private-Lines: 2\n${randomOf(ALNUM, 64, 23)}\n${randomOf(ALNUM, 40, 24)}=\nPrivate-MAC: 5a3f9c0e1b2d4f6a8c0e`,
        randomOf(ALNUM, 64, 23),
      ],
      ['a Google OAuth access token', `ya29.${randomOf(`${ALNUM}_-`, 60, 25)}`, randomOf(`${ALNUM}_-`, 60, 25)],
    ];
    for (const [what, text, value] of cases) {
      it(`masks ${what}`, () => {
        const masked = maskSecrets(text);
        assert.ok(!masked.includes(value), masked);
        assert.match(masked, /\[masked [^\]]+\]/);
      });
    }

    it('masks a quoted value to its closing quote, whatever it holds', () => {
      assert.equal(maskSecrets(`SECRET_KEY = 'k8#2$w!x@7zq#p0m&u9v^r3t*y6e(n1b)c5d+f4gh2j' # dev`), "SECRET_KEY = '[masked secret]' # dev");
    });

    it('leaves placeholders, code, types and names that are not a credential alone', () => {
      const text = [
        'DB_PASSWORD=${DB_PASSWORD}',
        'password: string;',
        'password = config.db.password',
        'token = getToken(request)',
        'api_key: "<your api key>"',
        'api_key: "xxxxxxxxxxxxxxxxxxxxxxxx"',
        'password_hash = "$2b$12$abc"',
        'max_tokens: 4096',
        'Authorization: Bearer $(gcloud auth print-access-token)',
        'docker run -u 1000:1000 image',
        'ssh -p 2222 host',
        'readonly STENCIL_PASS_DEPTH_PASS: 0x8897;',
        `primaryKey = "${randomOf(ALNUM, 30, 26)}"`,
      ].join('\n');
      const { text: out, masked } = maskSecretsCounted(text);
      assert.equal(masked, 0, out);
    });
  });

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
