/**
 * The engine's public surface for what a host hands the engine: the ports it implements (logger,
 * store, clock, workspace files, instruction files, summarizer, cancellation) and the engine's own
 * ready-made pieces it may pick instead (silent logger, system clock, token counters and tokenizers).
 */
export type {
  CallerFileRead,
  CallerFiles,
  Clock,
  EncodingName,
  InstructionFiles,
  InstructionFileText,
  Logger,
  Store,
  StoreEntry,
  StoreEntryKind,
  WorkspaceFiles,
} from '../ports';
export { noInstructionFiles, silentLogger, systemClock } from '../ports';
export { maskingLogger } from '../text/maskingLogger';
export type { Cancellation } from '../cancellation';
export { NEVER_CANCELLED } from '../cancellation';
export type { Summarizer, SummaryRequest } from '../summary/summarizer';
export { buildSummaryPrompt } from '../summary/summaryPrompt';
export { askingInConversation } from '../summary/conversationSummary';
export { readInstructions } from '../ledger/instructions';
export { SCOPED_INSTRUCTIONS_SUFFIX } from '../ledger/instructionFile';
export { TokenCounter } from '../tokens/counter';
export { TextCounts } from '../tokens/textCounts';
export { LocalTokenizer } from '../tokens/localTokenizer';
export { WorkerTokenizer } from '../tokens/worker/workerTokenizer';
export { rankLoaderFor } from '../tokens/worker/rankFiles';
export { chooseEncoding } from '../tokens/encodingChoice';
