/** Seeded hostile transcripts: damaged, binary, cut short, nested too deeply, with impossible times. */
import type { Random } from '../storage/randomState';
import { chatText, chatWithTools, nestedArray } from './cliTranscripts';

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const int = (random: Random, below: number) => Math.floor(random() * below);

/** A Claude Code session of a few records: a request, a tool call, its result, an answer. */
function claudeCodeText(random: Random, at: () => unknown): string {
  const base = { sessionId: 'fuzz', cwd: '/work' };
  const records = [
    { ...base, type: 'user', uuid: 'u1', timestamp: at(), message: { role: 'user', content: 'Why does the cache miss?' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      timestamp: at(),
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'grep -rn cache src' } }] },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u2',
      timestamp: at(),
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: `src/cache.ts:${int(random, 900)}: miss\n`.repeat(1 + int(random, 300)) },
        ],
      },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a2',
      timestamp: at(),
      message: { role: 'assistant', content: [{ type: 'text', text: 'The key is built twice.' }] },
    },
  ];
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** Times a transcript may carry: plausible, absent, and impossible. */
function fuzzTime(random: Random): unknown {
  return pick(random, [
    undefined,
    '2026-01-21T10:35:22Z',
    1_769_000_000,
    1_769_000_000_000,
    8.64e15 + 1,
    1e300,
    -5,
    'not a time',
    '+275760-09-14T00:00:00Z',
    Number.MAX_SAFE_INTEGER,
  ]);
}

function valid(random: Random): string {
  return random() < 0.5
    ? claudeCodeText(random, () => fuzzTime(random))
    : chatText(chatWithTools(1 + int(random, 4), 50 + int(random, 5_000)));
}

function damaged(random: Random, text: string): string {
  const chars = [...text];
  for (let i = 1 + int(random, 8); i > 0; i--) {
    const at = int(random, chars.length);
    const roll = random();
    if (roll < 0.4) chars[at] = pick(random, ['{', '}', '[', ']', '"', ',', ':', '\\', '\n', '\u0000', '\ud800', 'x']);
    else if (roll < 0.7) chars.splice(at, 1 + int(random, 20));
    else chars.splice(at, 0, pick(random, ['null', '[]', '{}', '"', '1e999', '-0', '\uFEFF']));
  }
  return chars.join('');
}

function deep(random: Random): string {
  const depth = pick(random, [999, 1_001, 4_500, 8_000, 30_000]);
  const nested = random() < 0.5 ? nestedArray(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return pick(random, [
    () => `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":${nested}}]}`,
    () =>
      `${claudeCodeText(random, () => undefined)}{"type":"user","uuid":"u9","message":{"role":"user","content":"x"},"extra":${nested}}\n`,
    () =>
      chatText([
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: nested } }] },
      ]),
    () => nested,
  ])();
}

function binary(random: Random): string {
  const bytes = Buffer.alloc(1 + int(random, 4_000));
  for (let i = 0; i < bytes.length; i++) bytes[i] = int(random, 256);
  return bytes.toString(pick(random, ['utf8', 'latin1'] as const));
}

function randomJson(random: Random, depth = 3): unknown {
  if (depth === 0 || random() < 0.3) return pick(random, [null, true, 0, -1.5, 'text', '', 1e308]);
  if (random() < 0.5) return Array.from({ length: int(random, 4) }, () => randomJson(random, depth - 1));
  return Object.fromEntries(
    Array.from({ length: int(random, 4) }, () => [
      pick(random, ['messages', 'role', 'content', 'type', 'history', 'tool_calls', 'x']),
      randomJson(random, depth - 1),
    ]),
  );
}

/** Kinds of hostile input, each a generator. */
export const FUZZ_KINDS = {
  damaged: (random: Random) => damaged(random, valid(random)),
  'cut short': (random: Random) => {
    const text = valid(random);
    return text.slice(0, int(random, text.length));
  },
  'nested too deeply': deep,
  binary,
  'random JSON': (random: Random) => JSON.stringify(randomJson(random)),
  'impossible times': (random: Random) => claudeCodeText(random, () => fuzzTime(random)),
} as const;

export type FuzzKind = keyof typeof FUZZ_KINDS;
