/**
 * The shape of a history summary (design §4.2), shared by the prompt that asks a
 * model for it and the deterministic summarizer that builds it.
 */
import type { RecoveryReferences } from './summarizer';

/** The summary's title line. */
export const SUMMARY_TITLE = '## Session Summary';

/** The sections, in the order they appear. */
export const SUMMARY_SECTIONS = [
  'Session Intent',
  'Artifacts Created',
  'Key Decisions',
  'Current Progress',
  'Critical Facts',
  'Next Steps',
  'Recovery References',
] as const;

/** A section of the summary, by its heading text. */
export type SummarySection = (typeof SUMMARY_SECTIONS)[number];

/** The Markdown heading of a section. */
export function sectionHeading(section: SummarySection): string {
  return `### ${section}`;
}

/** The markers (design §5.2), which the ledger reads back from the assistant's text. */
export const GOAL_MARKERS = ['GOAL', 'CHECKPOINT', 'DECISION', 'ARTIFACT', 'NEXT'] as const;

/** A goal marker's name, without its brackets. */
export type GoalMarker = (typeof GOAL_MARKERS)[number];

/** The name of the tool that searches the archive and offloaded results. */
export const RECOVER_TOOL = 'ctx_recover';

/** The lines of the Recovery References section: where the originals are and how to search them. */
export function recoveryReferenceLines(references: RecoveryReferences): string[] {
  return [
    `- Full conversation: ${references.archive}`,
    `- Offloaded content: ${references.offloaded}`,
    `- Messages covered: ${references.firstMessageId} … ${references.lastMessageId}`,
    `- Search them with ${RECOVER_TOOL} for exact outputs, errors and details left out here.`,
  ];
}
