/**
 * A fact: something a span of the conversation established that the rest of the session may need
 * word for word (what the user asked, what the assistant decided, an error and how it ended, an
 * outcome, a file or a name). Facts are read from the messages without any markers; the recall
 * check then asks whether each one is still in the context after the span is summarized.
 */

/** The kinds of facts, in the order they are shown. */
export const FACT_KINDS = ['request', 'decision', 'error', 'outcome', 'artifact', 'identifier'] as const;

/**
 * - `request`: what the user asked for, verbatim;
 * - `decision`: an approach the assistant chose, planned and acted on, or rejected;
 * - `error`: an error a tool reported, with how it was resolved;
 * - `outcome`: a result: test counts, a program's output, a version, a commit, a URL, an answer;
 * - `artifact`: a file created, edited, deleted or named;
 * - `identifier`: a function, class, config key or id people named.
 */
export type FactKind = (typeof FACT_KINDS)[number];

/** How an error ended, as far as the messages show. */
export interface ErrorResolution {
  readonly resolved: boolean;
  /** What resolved it, in a few words: "`cmd` succeeded", "re-ran `cmd`", or the assistant's sentence. */
  readonly by?: string;
  /** The message where it was resolved. */
  readonly messageId?: string;
}

/** One fact of a span: its kind, the key to look for, where it came from and how much it matters. */
export interface Fact {
  readonly kind: FactKind;
  /**
   * The string to look for: short, distinctive and exactly as it appears in the source (compared
   * with white space collapsed, case and Markdown emphasis ignored).
   */
  readonly key: string;
  /** The sentence or line the key comes from, on one line; it contains the key. */
  readonly text: string;
  /** The message the fact was read from. */
  readonly messageId: string;
  /** 0 to 1, higher is more important; a marker line (`[DECISION] …`) scores {@link MARKER_SCORE}. */
  readonly score: number;
  /** For errors: the command or file the error was about. */
  readonly subject?: string;
  /** For errors: whether and how it was resolved later in the span or after it. */
  readonly resolution?: ErrorResolution;
  /** For an error: a message that code the agent read raises (`raise ValueError("…")`), not an error that happened. */
  readonly inCode?: boolean;
  /** A line a tool printed rather than a fact read from it: but for a diagnostic, it takes only the printed lines' part of the earlier lines' room. */
  readonly printed?: boolean;
  /**
   * A sentence of the agent that only announces a look or reacts (`recall/sentenceRole.ts`): kept as
   * the agent's own line for the earlier lines, never labelled a decision nor checked as a fact.
   */
  readonly narration?: boolean;
  /**
   * For a line an edit took out of a file: the file's name. The line stands in for an earlier line that said that
   * file held it (both are keyed on the line), which is no longer true.
   */
  readonly takenOut?: string;
  /** For a line of a file's content (an offloaded result's, or a file a tool read): the file, which the lines are shown under. */
  readonly from?: string;
  /** With `from`: what the lines are of, when not an offloaded result (see {@link ContentSource}). */
  readonly fromKind?: ContentSource;
}

/**
 * What lines of content other than an offloaded result's are of: a file as a tool read it or as a
 * call wrote it (`from` is its path), what a command or call printed, or the text a call was given
 * (`from` is the command or the call).
 */
export const CONTENT_SOURCES = ['read', 'written', 'output', 'input'] as const;
export type ContentSource = (typeof CONTENT_SOURCES)[number];

/** The score of a line someone marked on purpose (`[DECISION]`, `[GOAL]`…): above anything read from plain text. */
export const MARKER_SCORE = 1;
