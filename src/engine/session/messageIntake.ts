/**
 * How messages arrive: archived first, then tier 1 offloads large tool results, then the ledger
 * takes in the user's words, the markers and the tool record. When the archive cannot be written
 * the messages still join the context unchanged: nothing leaves the context until the archive
 * holds it.
 */
import type { CompressionEvent } from '../model/compressionEvent';
import { errorMessage } from '../errors';
import { newId } from '../ids';
import { updateLedger, withOffloaded } from '../ledger/ledgerUpdate';
import type { EngineOptions } from '../options';
import type { CallerFiles, Clock, Logger, Store } from '../ports';
import { offloadedResultFacts } from '../recall/offloadedFacts';
import type { Fact } from '../model/fact';
import { keepCallerWrittenResult, writtenResultNote } from '../tiers/callerWrittenResult';
import { offloadDecision, offloadResult } from '../tiers/offload';
import { beyondPreviewSection } from '../tiers/beyondPreview';
import { maskSecrets } from '../text/secrets';
import type { OffloadRecord } from '../model/offloadRecord';
import type { OffloadedEntry } from '../model/ledgerTypes';
import { callSubject } from '../ledger/callSubject';
import type { TokenCounter } from '../tokens/counter';
import {
  printedTextBlock,
  toolResultBlock,
  type Block,
  type Message,
  type TextBlock,
  type ToolCallBlock,
  type ToolResultBlock,
} from '../types';
import type { SessionArchive } from './sessionArchive';
import { sessionTitle } from './sessionTitle';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionStateCell } from './stateCell';
import { formatCount } from '../text/numbers';
import { appended, concatenated } from '../appendedList';

/** Results longer than this are sized by estimate: counting 50 MB exactly would stall the turn. */
export const HUGE_RESULT_CHARS = 2_000_000;
/** Characters per token of the estimate used for huge results. */
const ESTIMATE_CHARS_PER_TOKEN = 4;

export interface IntakeDeps {
  /** The budget of the latest request: what the earlier lines' floor is a share of. */
  readonly budget: () => number;
  readonly cell: SessionStateCell;
  readonly archive: SessionArchive;
  readonly paths: SessionPaths;
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where results the caller wrote to files are read from (see `callerWrittenResult.ts`). */
  readonly callerFiles?: CallerFiles;
  /** The options as they apply to the latest budget. */
  options(): EngineOptions;
}

export class MessageIntake {
  /** Facts of the results offloaded since the last request, for the earlier lines' pool. */
  private offloadedFacts: Fact[] = [];

  constructor(private readonly deps: IntakeDeps) {}

  /** The facts of the results offloaded since the last call, once (see `offloadedResultFacts`). */
  takeOffloadedFacts(): readonly Fact[] {
    const taken = this.offloadedFacts;
    this.offloadedFacts = [];
    return taken;
  }

  /**
   * Takes the messages in; returns what tier 1 did. `alreadyArchived` is for messages the archive
   * holds but the state does not (a session reopened after a crash): they are not archived again.
   */
  async add(messages: readonly Message[], alreadyArchived = false): Promise<CompressionEvent[]> {
    const { cell, counter, clock } = this.deps;
    const archived = alreadyArchived ? this.countArchived(messages) : await this.archive(messages);
    const events: CompressionEvent[] = [];
    const offloads: OffloadRecord[] = [];
    const arrived: Message[] = [];
    const state = cell.state;
    const findCall = callFinder(state.active, messages);
    for (const msg of messages) arrived.push(archived ? await this.offloadLargeResults(msg, findCall, events, offloads) : msg);
    if (archived) await this.keepCallerWrittenResults(messages, findCall);
    const checkpointTools = this.deps.options().checkpointTools;
    const checkpointCall = messages.flatMap((m) => m.blocks).find((b) => b.type === 'toolCall' && checkpointTools.includes(b.name));
    const ledger = await updateLedger(state.ledger, messages, {
      findCall,
      countText: (t) => counter.countText(t),
      now: clock.now(),
      newId: (prefix) => newId(prefix, clock.now()),
    });
    cell.update({
      ...(checkpointCall?.type === 'toolCall' ? { pendingCheckpointTool: checkpointCall.name } : {}),
      active: concatenated(state.active, arrived),
      title: state.title || sessionTitle(messages),
      offloads: appended(state.offloads, offloads),
      history: appended(state.history, events),
      ledger: withOffloaded(
        ledger,
        offloads.map((o) => withSubject(o, findCall(o.callId))),
      ),
    });
    cell.changed('messages');
    return events;
  }

  /**
   * Reads the files the caller wrote results to (its note stays in the context as sent) into the session's offloaded
   * folder, so search finds their content. A file that cannot be read is said in the log, in plain words.
   */
  private async keepCallerWrittenResults(messages: readonly Message[], findCall: CallFinder): Promise<void> {
    const { callerFiles, store, paths, logger, clock } = this.deps;
    if (!callerFiles) return;
    for (const msg of messages) {
      for (const block of msg.blocks) {
        const note = block.type === 'toolResult' ? writtenResultNote(block.content) : undefined;
        if (!note || block.type !== 'toolResult') continue;
        const call = findCall(block.callId);
        // Only the result of a call the session holds: a note anywhere else is text, not the caller's act.
        if (call === undefined) {
          logger.warn(`A result names a file the caller wrote (${note.path}), but answers no call of this session: ctx does not read it.`);
          continue;
        }
        const toolName = block.toolName ?? call.name;
        const read = await callerFiles.readResultFile(note.path, block.callId);
        if ('problem' in read) {
          logger.warn(`The ${toolName} result the caller wrote to ${note.path} is not in the archive: ${read.problem}`);
          continue;
        }
        try {
          const file = await keepCallerWrittenResult(read.text, toolName, block.callId, msg.at ?? clock.now(), {
            store,
            folder: paths.offloaded,
          });
          logger.info(
            `Kept the ${toolName} result the caller wrote to ${note.path} (${formatCount(read.text.length)} characters) as ${file.split('/').pop()}`,
          );
        } catch (e) {
          logger.warn(`The ${toolName} result the caller wrote to ${note.path} is not in the archive: ${errorMessage(e)}`);
        }
      }
    }
  }

  private countArchived(messages: readonly Message[]): boolean {
    this.deps.cell.update({ archivedCount: this.deps.cell.state.archivedCount + messages.length });
    return true;
  }

  private async archive(messages: readonly Message[]): Promise<boolean> {
    const { cell, archive } = this.deps;
    try {
      const written = await archive.append(messages);
      cell.update({ archivedCount: cell.state.archivedCount + written });
      return true;
    } catch (e) {
      cell.warn(
        `The archive could not be written (${errorMessage(e)}). The conversation goes on with its full context; ` +
          `compression waits until the archive can be written, so nothing is lost.`,
      );
      return false;
    }
  }

  private async offloadLargeResults(
    msg: Message,
    findCall: CallFinder,
    events: CompressionEvent[],
    records: OffloadRecord[],
  ): Promise<Message> {
    if (!msg.blocks.some((b) => b.type === 'toolResult' || (b.type === 'text' && b.printed === true))) return msg;
    const blocks: Block[] = [];
    for (const [index, block] of msg.blocks.entries()) {
      if (block.type === 'toolResult') {
        blocks.push(await this.offloadIfLarge(block, findCall(block.callId), msg, events, records));
      } else if (block.type === 'text' && block.printed === true) {
        blocks.push(await this.offloadPrintedIfLarge(block, index, msg, events, records));
      } else {
        blocks.push(block);
      }
    }
    return blocks.every((b, i) => b === msg.blocks[i]) ? msg : { ...msg, blocks };
  }

  /**
   * What the host printed of something it ran itself (a command the user ran with `!`) is a command's output like a
   * tool's result, and goes to a file on arrival by the same rule; it stays printed, so it is still read as output.
   */
  private async offloadPrintedIfLarge(
    block: TextBlock,
    index: number,
    msg: Message,
    events: CompressionEvent[],
    records: OffloadRecord[],
  ): Promise<TextBlock> {
    const output = toolResultBlock(`${msg.id}-printed-${index + 1}`, block.text, false, PRINTED_OUTPUT);
    const offloaded = await this.offloadIfLarge(output, undefined, msg, events, records);
    return offloaded === output ? block : printedTextBlock(offloaded.content);
  }

  private async offloadIfLarge(
    block: ToolResultBlock,
    call: ToolCallBlock | undefined,
    msg: Message,
    events: CompressionEvent[],
    records: OffloadRecord[],
  ): Promise<ToolResultBlock> {
    const { counter, clock, store, paths, logger, cell } = this.deps;
    const toolName = block.toolName ?? call?.name ?? 'tool';
    const huge = block.content.length > HUGE_RESULT_CHARS;
    const tokens = huge ? Math.ceil(block.content.length / ESTIMATE_CHARS_PER_TOKEN) : await counter.countBlock(block);
    const thresholdTokens = this.deps.options().offloadThresholdTokens;
    if (offloadDecision(block.content, tokens, { thresholdTokens }) === 'keep') return block;
    const at = msg.at ?? clock.now();
    try {
      const written = await offloadResult(block, toolName, tokens, at, { store, folder: paths.offloaded });
      // Named as the preview names it, which is what `ctx_read_offloaded` takes.
      const contentFile = written.kind === 'binary' ? undefined : written.file.split('/').pop();
      const facts = offloadedResultFacts(block, written.block.content, call, msg.id, contentFile);
      const beyond = maskSecrets(beyondPreviewSection(facts));
      const offloaded = beyond ? { ...written, block: { ...written.block, content: `${written.block.content}\n${beyond}` } } : written;
      const savedTokens = Math.max(0, tokens - (await counter.countText(offloaded.block.content)));
      this.offloadedFacts.push(...facts);
      const estimated = huge || counter.estimated;
      records.push({
        callId: block.callId,
        toolName,
        file: offloaded.file,
        tokens,
        savedTokens,
        kind: offloaded.kind,
        isError: block.isError,
        at,
        estimated,
      });
      const what = block.isError ? 'error' : 'result';
      events.push({
        at,
        kind: 'offload',
        savedTokens,
        detail: `Offloaded ${toolName} ${what} (${formatCount(tokens)} tokens) to ${offloaded.file.split('/').pop()}`,
        file: offloaded.file,
      });
      if (offloaded.replacedCharacters > 0) {
        logger.warn(
          `${offloaded.replacedCharacters} invalid UTF-16 characters were replaced in the offloaded copy of ${block.callId}; the archive keeps the original.`,
        );
      }
      return offloaded.block;
    } catch (e) {
      cell.warn(`A large ${toolName} result could not be written to a file (${errorMessage(e)}); it stays in the context in full.`);
      return block;
    }
  }
}

/** How output the host printed is named where it is offloaded: in its file's name, its preview's heading and the tree. */
const PRINTED_OUTPUT = 'printed output';

/** A tool call by its id. */
type CallFinder = (callId: string) => ToolCallBlock | undefined;

/**
 * Finds a tool call among `earlier` and then `arriving`, the latest first (as a map of them all
 * would answer): a result's call is usually a message or two before it, so a lookup reads a few
 * messages instead of every message arrival indexing the whole live context.
 */
function callFinder(earlier: readonly Message[], arriving: readonly Message[]): CallFinder {
  const found = new Map<string, ToolCallBlock | undefined>();
  return (callId) => {
    if (!found.has(callId)) found.set(callId, latestCall(arriving, callId) ?? latestCall(earlier, callId));
    return found.get(callId);
  };
}

/** An offload as the ledger lists it, with what its call was about (secrets masked: the ledger is sent every request). */
function withSubject(offload: OffloadRecord, call: ToolCallBlock | undefined): OffloadedEntry {
  const subject = call === undefined ? undefined : callSubject(call);
  return subject === undefined ? offload : { ...offload, subject: maskSecrets(subject) };
}

function latestCall(messages: readonly Message[], callId: string): ToolCallBlock | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = messages[i].blocks;
    for (let j = blocks.length - 1; j >= 0; j--) {
      const block = blocks[j];
      if (block.type === 'toolCall' && block.id === callId) return block;
    }
  }
  return undefined;
}
