/**
 * What an assistant sentence states, read from its wording: a choice or a rejection, an
 * intention, a result, a failure or a finding. Cues are English phrases; sessions in other
 * languages still yield decisions through what the assistant did (see `proseFacts`), so these
 * only sharpen the scores.
 */
import type { FactKind } from '../model/fact';

/** What a sentence states, as a fact kind and how much it matters. */
export interface Statement {
  readonly kind: Extract<FactKind, 'decision' | 'error' | 'outcome'>;
  readonly score: number;
  /** An intention to look at something (read, check, search) rather than to change it. */
  readonly exploring?: boolean;
}

const A = "['’]";
/** Choosing between options, or ruling one out: the strongest sign of a decision. */
const CHOICE = new RegExp(
  [
    String.raw`\binstead\b`,
    String.raw`\brather than\b`,
    String.raw`\bdecid(?:ed|e to|ing to)\b`,
    String.raw`\b(?:chose|choose to|choosing)\b`,
    String.raw`\bopt(?:ed|ing)? (?:to|for)\b`,
    String.raw`\b(?:going|go|went) with\b`,
    String.raw`\bsettl(?:ed|e|ing) on\b`,
    String.raw`\bswitch(?:ed|ing)? to\b`,
    String.raw`\bfall(?:ing)? ?back (?:to|on)\b`,
    String.raw`\bprefer(?:red|ring)?\b`,
    String.raw`\bin favou?r of\b`,
    String.raw`\bthe (?:best|right|simplest|cleanest|safest|correct) (?:way|approach|fix|option|solution|place)\b`,
    String.raw`\b(?:the|my|our) (?:approach|plan|strategy|fix|solution) (?:is|will be|here is)\b`,
    String.raw`\bwon${A}t\b`,
    String.raw`\bwill not\b`,
    String.raw`\bshould(?:n${A}t| not)\b`,
    String.raw`\bdon${A}t need\b`,
    String.raw`\bno need to\b`,
    String.raw`\bavoid(?:ing)?\b`,
    String.raw`\bnot going to\b`,
    String.raw`\brul(?:e|ed|ing) out\b`,
    String.raw`\bnot\b[^.]{0,80}\bbecause\b`,
  ].join('|'),
  'i',
);
/** Saying what comes next. */
const INTENTION_PHRASES = [
  `I${A}ll`,
  'I will',
  `I${A}m going to`,
  'I am going to',
  `let${A}s`,
  'let us',
  `we${A}ll`,
  'we will',
  'we should',
  'we need to',
  'I should',
  'I need to',
  `I${A}d like to`,
  'I plan to',
  `I${A}m (?:now )?(?:going|planning|adding|changing|updating|using|switching|replacing|removing)`,
  'the plan',
  'plan:',
];
const INTENTION = new RegExp(String.raw`(?:^|\b)(?:${INTENTION_PHRASES.join('|')})\b`, 'i');
const LET_ME = /^(?:(?:now|first|next|then|ok(?:ay)?|great|good|alright),?\s+)?let me\b/i;
/** Verbs of looking rather than changing: an intention to explore. */
const EXPLORING =
  /\b(?:check|look|see|read|view|search|examine|inspect|explore|find|understand|investigate|review|open|list|verify|confirm|take a look|start by)\b/i;
/** A result reached. */
const RESULT = new RegExp(
  [
    String.raw`\ball (?:\d+ )?(?:tests?|checks?|specs?)(?: now)? pass(?:ed|es)?\b`,
    String.raw`\b\d+ (?:tests? )?(?:passed|passing|pass)\b`,
    String.raw`\bsuccessfully\b`,
    String.raw`\bsucceeded\b`,
    String.raw`\b(?:now works|works now|is now working|is (?:now )?fixed)\b`,
    String.raw`\b(?:has|have) been (?:fixed|created|added|updated|removed|implemented|resolved|deployed|merged|committed|pushed)\b`,
    String.raw`\bI(?:${A}ve| have)? (?:fixed|created|added|updated|removed|implemented|changed|written|wrote|refactored|moved|renamed|replaced)\b`,
  ].join('|'),
  'i',
);
/** Something went wrong. */
const FAILURE_WORDS = [
  'fail(?:s|ed|ing|ure)?',
  'errors?',
  'exception',
  `couldn${A}t`,
  'could not',
  `can${A}t`,
  'cannot',
  'unable to',
  'interrupted',
  `(?:does|did)(?:n${A}t| not) work`,
  'broken',
  'crash(?:es|ed)?',
  'not found',
  'timed? out',
];
const FAILURE = new RegExp(String.raw`(?<![\w-])(?:${FAILURE_WORDS.join('|')})\b`, 'i');
/**
 * A failure word naming a part of a program rather than a failure: "comprehensive error handling",
 * "an error boundary", "exception handlers", "crash reporting". A feature list says it of what was built.
 */
const FEATURE_NOUNS = String.raw`handling|handlers?|boundar(?:y|ies)|reporting|recovery|checking|logging|tracking|pages?|types?|classes`;
const FAILURE_AS_FEATURE = new RegExp(String.raw`(?<![\w-])(?:errors?|exceptions?|failures?|crash)[- ](?:${FEATURE_NOUNS})\b`, 'gi');
/** A failure word denied: "without errors", "didn't get any error", "no failures". */
const FAILURE_NOUN = String.raw`(?:errors?|fail\w*|exceptions?|crash\w*)\b`;
const DENIED_FAILURE = new RegExp(
  [
    String.raw`\b(?:no|not|without|never|zero|0)\s+(?:\w+\s+){0,2}${FAILURE_NOUN}`,
    // `n't` sits inside its word ("didn't get any error"); a joining word starts another clause ("couldn't start and failed").
    String.raw`n${A}t(?:\s+(?!(?:and|but|or|so|then|because)\b)\w+){0,3}\s+${FAILURE_NOUN}`,
  ].join('|'),
  'i',
);
/** Something found out: a cause, a diagnosis, a fact about the code. */
const FINDING_PHRASES = [
  'root cause',
  'the cause',
  'caused by',
  'the (?:issue|problem|bug|error|culprit) (?:is|was|here)',
  'this is (?:a|an|the|because|due)',
  'because',
  'due to',
  'turns out',
  'it seems',
  'appears to',
  'seems to',
  String.raw`found (?:that|the|a|\d+)`,
  'this means',
  'which means',
  'the reason',
  'mismatch',
  'likely',
  'confirm(?:s|ed)',
];
const FINDING = new RegExp(String.raw`\b(?:${FINDING_PHRASES.join('|')})\b`, 'i');
/** Saying an error is gone. */
const FIXED = new RegExp(
  String.raw`\b(?:fixed|resolved|solved|works now|now works|is working|passes now|now pass(?:es)?|succeeded|(?:that|this|it) worked|no longer)\b`,
  'i',
);

/** Scores of what a sentence states; a plan the next call carries out gains `ACTED_ON_BONUS` (see `proseFacts`). */
export const STATEMENT_SCORES = {
  choice: 0.75,
  intention: 0.55,
  exploring: 0.35,
  result: 0.6,
  failure: 0.5,
  finding: 0.55,
} as const;

/** What `sentence` states, or undefined for a sentence that states none of these (or asks something). */
export function statementOf(sentence: string): Statement | undefined {
  if (/[?？]\s*$/.test(sentence)) return undefined;
  if (CHOICE.test(sentence)) return { kind: 'decision', score: STATEMENT_SCORES.choice };
  const letMe = LET_ME.test(sentence);
  if (letMe || INTENTION.test(sentence)) {
    const exploring = letMe || EXPLORING.test(sentence);
    return { kind: 'decision', score: exploring ? STATEMENT_SCORES.exploring : STATEMENT_SCORES.intention, exploring };
  }
  if (RESULT.test(sentence)) return { kind: 'outcome', score: STATEMENT_SCORES.result };
  if (saysFailure(sentence)) return { kind: 'error', score: STATEMENT_SCORES.failure };
  if (FINDING.test(sentence)) return { kind: 'outcome', score: STATEMENT_SCORES.finding };
  return undefined;
}

/** True when the sentence says something went wrong: a failure word, not denied, not naming a feature. */
function saysFailure(sentence: string): boolean {
  if (!FAILURE.test(sentence)) return false;
  const words = sentence.replace(FAILURE_AS_FEATURE, '');
  return FAILURE.test(words) && !DENIED_FAILURE.test(words);
}

/** Conditions and wishes: "would be fixed", "to confirm that it works", "once it is resolved". */
const HYPOTHETICAL = /\b(?:would|could|might|if|once|unless|whether|verif\w*|to (?:confirm|check|make sure)|should|need(?:s)? to|until)\b/i;

/** A fix word denied: "cannot be solved", "is not fixed", "hasn't been resolved yet". */
const NEGATIONS = [
  'not',
  'never',
  'cannot',
  ...['can', 'couldn', 'isn', 'wasn', 'aren', 'weren', 'hasn', 'haven', 'won'].map((w) => `${w}${A}t`),
];
const DENIED_FIX = new RegExp(String.raw`\b(?:${NEGATIONS.join('|')})\s+(?:\w+\s+){0,2}(?:fixed|resolved|solved)\b`, 'gi');
/** Inline code: what it quotes (an error message, a name) is not the writer saying anything of its own. */
const INLINE_CODE = /`[^`\n]*`/g;

/** True when the sentence says something now works or was fixed (not that it will be, or would be). */
export function saysFixed(sentence: string): boolean {
  const own = sentence.includes('`') ? sentence.replace(INLINE_CODE, ' ') : sentence;
  return (
    FIXED.test(own.replace(DENIED_FIX, ' ')) &&
    !/[?？]\s*$/.test(sentence) &&
    !LET_ME.test(sentence) &&
    !INTENTION.test(sentence) &&
    !HYPOTHETICAL.test(sentence)
  );
}
