/** What a summary must serve, taken from the ledger: the intent, active goals, locked decisions, progress and the next step. */
import type { Ledger } from '../model/ledgerTypes';
import type { SummaryGuide } from './summarizer';

export function guideFrom(ledger: Ledger): SummaryGuide {
  return {
    intent: ledger.intent?.text ?? '',
    goals: ledger.goals.filter((g) => g.status === 'active').map((g) => g.text),
    decisions: ledger.decisions.filter((d) => d.locked).map((d) => d.text),
    progress: ledger.progress.map((p) => `${p.text} - ${p.status.toUpperCase()}`),
    ...(ledger.nextStep ? { nextStep: ledger.nextStep.text } : {}),
  };
}
