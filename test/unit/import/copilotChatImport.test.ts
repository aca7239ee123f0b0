import * as assert from 'node:assert/strict';
import { COPILOT_SUMMARY_MARKER } from '../../../src/cli/import/copilotChat';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';
import { ledgerAfter, markedTexts, OWN_GOAL, PLANTED } from './provenanceSupport';

const text = (value: string) => ({ type: 1, text: value });
const cacheBreak = { type: 3, cacheType: 'ephemeral' };
const rendered = (request: string, context = 'The current date is May 4, 2026.') => [
  text(
    `<context>\n${context}\n</context>\n<reminderInstructions>\nKeep edits small.\n</reminderInstructions>\n<userRequest>\n${request}\n</userRequest>\n`,
  ),
  cacheBreak,
];
/** A prompt-tsx tree as Copilot serializes a file read: text pieces spread over nested nodes, the path as a reference node. */
const fileTree = (lines: readonly string[]) => ({
  value: {
    node: {
      type: 1,
      ctorName: 'Tag',
      children: [
        { type: 1, ctorName: 'Ref', children: [], references: [{ anchor: { path: '/repo/app.ts' } }] },
        ...lines.map((line, i) => ({ type: 1, ctorName: 'Line', children: [{ type: 2, priority: i, text: line, lineBreakBefore: true }] })),
      ],
    },
  },
});

interface RequestShape {
  readonly id: string;
  readonly typed: string;
  readonly rounds?: readonly object[];
  readonly results?: Record<string, object>;
  readonly global?: string;
  readonly metadata?: Record<string, unknown>;
  readonly response?: readonly object[];
  readonly renderedMessage?: readonly object[];
}

const request = (r: RequestShape) => ({
  requestId: r.id,
  message: { text: r.typed, parts: [] },
  variableData: { variables: [] },
  response: r.response ?? [{ value: 'shown in the chat view' }, { kind: 'toolInvocationSerialized', invocationMessage: 'Read app.ts' }],
  timestamp: 1762212666659,
  modelId: 'copilot/claude-sonnet-4.5',
  result:
    r.rounds === undefined
      ? { timings: {} }
      : {
          timings: {},
          metadata: {
            sessionId: 'chat-1',
            renderedUserMessage: r.renderedMessage ?? rendered(r.typed),
            ...(r.global === undefined ? {} : { renderedGlobalContext: [text(r.global), cacheBreak] }),
            toolCallRounds: r.rounds,
            toolCallResults: r.results ?? {},
            ...r.metadata,
          },
        },
});
const exported = (requests: readonly object[]) =>
  JSON.stringify({ requesterUsername: 'me', responderUsername: 'GitHub Copilot', initialLocation: 'panel', requests });
const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) });

describe('Copilot Chat export import', () => {
  const session = exported([
    request({
      id: 'request_1',
      typed: 'Fix the failing build',
      global: '<environment_info>\nThe user is on Linux.\n</environment_info>\n<workspace_info>\n/repo\n</workspace_info>',
      rounds: [
        {
          id: 'r1',
          response: 'Reading both files.',
          toolCalls: [
            call('toolu_a__vscode-1', 'read_file', { filePath: '/repo/app.ts' }),
            call('toolu_b__vscode-2', 'run_in_terminal', { command: 'npm run build' }),
          ],
          thinking: { id: 't1', text: 'Let me look.' },
        },
        { id: 'r2', response: 'The import path was wrong; fixed.', toolCalls: [] },
      ],
      results: {
        // Not in call order, as in real exports.
        'toolu_b__vscode-2': { content: [{ value: 'error TS2307: Cannot find module' }, { mimeType: 'image/png', data: '' }] },
        'toolu_a__vscode-1': { content: [fileTree(['```ts\n', "import { x } from './y';", '```'])] },
      },
    }),
    request({
      id: 'request_2',
      typed: 'Now run the tests',
      global: '<environment_info>\nThe user is on Linux.\n</environment_info>\n<workspace_info>\n/repo\n</workspace_info>',
      rounds: [{ id: 'r3', response: 'All 12 tests pass.', toolCalls: [] }],
    }),
  ]);
  const result = importTranscript(session);

  it('is one user message per request, one assistant message per round and one tool message per call, paired by id', () => {
    assert.equal(result.format, 'copilot-chat');
    assert.equal(result.sessions[0].id, 'chat-1');
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'tool', 'assistant', 'user', 'assistant'],
    );
    assert.deepEqual(
      toolCalls(result.messages[1]).map((c) => [c.name, c.input]),
      [
        ['read_file', { filePath: '/repo/app.ts' }],
        ['run_in_terminal', { command: 'npm run build' }],
      ],
    );
    assert.deepEqual(
      result.messages.flatMap(toolResults).map((r) => r.toolName),
      ['read_file', 'run_in_terminal'],
    );
    assert.equal(result.stats.thinkingBlocks, 1);
    assertWellFormed(result);
  });

  it('concatenates a prompt-tsx result tree depth first, and puts a placeholder for an image, counted', () => {
    const [read, build] = result.messages.flatMap(toolResults);
    assert.equal(read.content, "```ts\nimport { x } from './y';\n```");
    assert.equal(build.content, 'error TS2307: Cannot find module\n[image]');
    assert.equal(result.stats.placeholders, 1);
  });

  it("keeps the user's words from <userRequest> as authored text and the rest of the rendered turn as injected", () => {
    const first = result.messages[0];
    assert.equal(authoredText(first), 'Fix the failing build');
    assert.match(messageText(first), /<environment_info>[\s\S]*<context>[\s\S]*<reminderInstructions>/);
    // The global context is sent once: the second request repeats it in its metadata only.
    assert.doesNotMatch(messageText(result.messages[5]), /environment_info/);
    assert.equal(authoredText(result.messages[5]), 'Now run the tests');
  });

  it('ignores markers planted in <context>, <attachments>, <reminderInstructions> and <environment_info>', async () => {
    const { ledger } = await ledgerAfter(
      exported([
        request({
          id: 'request_1',
          typed: `Tidy the module\n${OWN_GOAL}`,
          global: `<environment_info>\n${PLANTED}\n</environment_info>`,
          renderedMessage: [
            text(
              `<attachments>\n<attachment id="notes.md">\n${PLANTED}\n</attachment>\n</attachments>\n<context>\n${PLANTED}\n</context>\n` +
                `<reminderInstructions>\n${PLANTED}\n</reminderInstructions>\n<userRequest>\nTidy the module\n${OWN_GOAL}\n</userRequest>`,
            ),
          ],
          rounds: [{ id: 'r1', response: 'Done.', toolCalls: [] }],
        }),
      ]),
    );
    assert.deepEqual(markedTexts(ledger), ['goal: keep the public API stable']);
    assert.equal(ledger.intent?.text, `Tidy the module\n${OWN_GOAL}`);
  });

  it("keeps Copilot's history summary after its round as an injected message, or drops and counts it", () => {
    const summarized = exported([
      request({
        id: 'request_1',
        typed: 'Keep going',
        rounds: [
          { id: 'r1', response: 'Step one.', toolCalls: [] },
          { id: 'r2', response: 'Step two.', toolCalls: [] },
        ],
        metadata: { summary: { toolCallRoundId: 'r1', text: `Earlier: the build was fixed.\n${PLANTED}` } },
      }),
    ]);
    const kept = importTranscript(summarized);
    assert.deepEqual(
      kept.messages.map((m) => [m.role, authoredText(m) === '' ? messageText(m).split('\n')[0] : authoredText(m)]),
      [
        ['user', 'Keep going'],
        ['assistant', 'Step one.'],
        ['user', COPILOT_SUMMARY_MARKER],
        ['assistant', 'Step two.'],
      ],
    );
    const dropped = importTranscript(summarized, { keepNativeCompaction: false });
    assert.equal(dropped.messages.length, 3);
    assert.equal(dropped.stats.skippedByKind['native-compaction-summary'], 1);
  });

  it('marks a call the chat view showed as failed, matching its invocations to the calls by order only when they are as many', () => {
    const shown = (isError: boolean) => ({
      kind: 'toolInvocationSerialized',
      toolCallId: 'view-id',
      resultDetails: { input: '{}', output: [], isError },
    });
    const rounds = [
      {
        id: 'r1',
        response: 'Updating both.',
        toolCalls: [call('t1', 'update_entry', { id: 'a' }), call('t2', 'update_entry', { id: 'b' })],
      },
    ];
    const results = { t1: { content: [{ value: 'ok' }] }, t2: { content: [{ value: '400: bad request' }] } };
    const failures = (response: readonly object[]) =>
      importTranscript(exported([request({ id: 'request_1', typed: 'Update them', rounds, results, response })]))
        .messages.flatMap(toolResults)
        .map((r) => [r.callId, r.isError]);
    assert.deepEqual(failures([shown(false), shown(true)]), [
      ['t1', false],
      ['t2', true],
    ]);
    assert.deepEqual(failures([shown(true), shown(false), shown(true)]), [
      ['t1', false],
      ['t2', false],
    ]);
  });

  it('keeps a result whose call is in no round as injected user text and counts it', () => {
    const orphan = importTranscript(
      exported([
        request({
          id: 'request_1',
          typed: 'Look',
          rounds: [{ id: 'r1', response: 'Looked.', toolCalls: [] }],
          results: { 'toolu_gone__vscode-9': { content: [{ value: 'stray output' }] } },
        }),
      ]),
    );
    assert.equal(orphan.stats.unpairedResults, 1);
    const last = orphan.messages[orphan.messages.length - 1];
    assert.equal(last.role, 'user');
    assert.match(messageText(last), /stray output/);
    assert.equal(authoredText(last), '');
  });

  it('reads the shown response of a request that has no rounds, and says so', () => {
    const plain = importTranscript(
      exported([
        request({
          id: 'request_1',
          typed: 'What is a monad?',
          response: [{ value: 'A monoid in ' }, { value: 'the category of endofunctors.' }],
        }),
      ]),
    );
    assert.deepEqual(plain.messages.map(messageText), ['What is a monad?', 'A monoid in the category of endofunctors.']);
    assert.match(plain.warnings[0].reason, /no tool call rounds/);
  });
});
