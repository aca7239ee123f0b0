/**
 * What the provider benchmarks share: a caller's conversation (a dev transcript's messages as a
 * caller of a ctx model sends them, behind a system prompt and tool definitions of the size an
 * agent sends), a stand-in for the wrapped model, and relay ports over a store on disk.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConversationRouter, type SessionSource } from '../../src/engine/conversation/conversationRouter';
import type { IncomingMessage } from '../../src/engine/conversation/incomingMessage';
import { DEFAULT_OPTIONS, type EngineOptions } from '../../src/engine/options';
import { silentLogger, systemClock } from '../../src/engine/ports';
import type { Outgoing } from '../../src/engine/relay/outgoing';
import type { RelayPart, RelayPorts } from '../../src/engine/relay/relayPorts';
import { ContextSession, type SessionDeps } from '../../src/engine/session/contextSession';
import { FileStore } from '../../src/engine/storage/fileStore';
import { TokenCounter } from '../../src/engine/tokens/counter';
import type { LocalTokenizer } from '../../src/engine/tokens/localTokenizer';
import { TextCounts } from '../../src/engine/tokens/textCounts';
import { textBlock, type Block, type Message, type Role } from '../../src/engine/types';
import { importForReplay, largestTranscriptFile, repeatedConversation } from './replayFixtures';

/** The caller's message object, as it would arrive from another extension. */
export interface RawMessage {
  readonly role: Role;
  readonly blocks: readonly Block[];
}

export type CallerMessage = IncomingMessage<RawMessage>;

export interface BenchTool {
  readonly name: string;
  readonly definition: string;
}

/** Tool definitions an agent sends with every request (names, descriptions, JSON schemas). */
export const AGENT_TOOLS = 40;
/** Characters of an agent's system prompt. */
export const SYSTEM_PROMPT_CHARS = 24_000;
/** Text parts the stand-in answers with. */
const ANSWER_PARTS = 12;

export function agentTools(): BenchTool[] {
  return Array.from({ length: AGENT_TOOLS }, (_, i) => ({
    name: `tool_${i}`,
    definition: JSON.stringify({
      name: `tool_${i}`,
      description: `Does step ${i} of the work. `.repeat(12),
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, line: { type: 'number' } } },
    }),
  }));
}

export function systemPrompt(): CallerMessage {
  const line = 'Follow the instructions; use the tools; keep answers short. ';
  return toCaller({ id: 'system', role: 'system', blocks: [textBlock(line.repeat(Math.ceil(SYSTEM_PROMPT_CHARS / line.length)))] });
}

export function toCaller(m: Message): CallerMessage {
  return { role: m.role, blocks: m.blocks, extra: [], raw: { role: m.role, blocks: m.blocks } };
}

/** The largest dev transcript's conversation, repeated to at least `count` messages, as the caller sends it. */
export function callerConversation(count: number): CallerMessage[] {
  const messages = importForReplay(largestTranscriptFile()).messages.filter((m) => m.role !== 'system');
  return repeatedConversation(messages, Math.ceil(count / messages.length))
    .slice(0, count)
    .map(toCaller);
}

/** The messages as new objects, as they arrive with each request from another extension host. */
export function asNewObjects(messages: readonly CallerMessage[]): CallerMessage[] {
  return messages.map((m) => {
    const blocks = m.blocks.map((b) => ({ ...b }));
    return { ...m, blocks, raw: { role: m.role, blocks } };
  });
}

/** The stand-in's answer: a few text parts, as a model streams them. */
export async function* standInAnswer(): AsyncIterable<RelayPart<string>> {
  for (let i = 0; i < ANSWER_PARTS; i++) yield { kind: 'text', text: `part ${i} `, part: `part ${i}` };
}

/** Reads the stand-in's answer to a request sent straight to it: the baseline. */
export async function sendDirectly(messages: readonly CallerMessage[], received: string[]): Promise<void> {
  void messages;
  for await (const p of standInAnswer()) received.push(p.part);
}

export interface BenchRelay {
  readonly ports: RelayPorts<RawMessage, BenchTool, string>;
  readonly folder: string;
  /** What the stand-in was sent, request by request. */
  readonly sent: (readonly Outgoing<RawMessage>[])[];
  dispose(): void;
}

/** Relay ports over a fresh store on disk, the engine's default options and an exact counter. */
export function benchRelay(tokenizer: LocalTokenizer, options: EngineOptions = DEFAULT_OPTIONS): BenchRelay {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-provider-'));
  const store = new FileStore(folder);
  const counter = new TokenCounter(tokenizer);
  const deps: SessionDeps = { store, counter, files: { readText: async () => undefined }, logger: silentLogger, clock: systemClock };
  const open = new Map<string, ContextSession>();
  const sessions: SessionSource = {
    create: async () => {
      const s = ContextSession.create(options, deps);
      open.set(s.id, s);
      return s;
    },
    open: async (id) => open.get(id) ?? ContextSession.open(id, options, deps),
  };
  const counts = new TextCounts(counter);
  const sent: (readonly Outgoing<RawMessage>[])[] = [];
  const ports: RelayPorts<RawMessage, BenchTool, string> = {
    router: new ConversationRouter({ store, clock: systemClock, logger: silentLogger }),
    sessions,
    logger: silentLogger,
    clock: systemClock,
    budgetFor: (window) => window - 4_096,
    countText: (t) => counts.count(t),
    toolText: (t) => t.definition,
    toolName: (t) => t.name,
    recoveryTools: [],
    runRecoveryTool: async () => '',
    turnOptions: async () => ({}),
    cacheMarked: () => false,
    send: async (messages) => {
      sent.push(messages);
      return standInAnswer();
    },
    // No summarizer is given (`turnOptions`), so nothing asks.
    ask: async () => '',
    report: () => undefined,
    emit: () => undefined,
  };
  return {
    ports,
    folder,
    sent,
    dispose: () => {
      for (const s of open.values()) s.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
