/**
 * The ledger edits a person asks for: goals (`/goal`), locked decisions (`/decide`), and the
 * workspace instructions the ledger keeps. Each saves the state and tells the session's listeners
 * the ledger changed; an edit that changes nothing does neither.
 */
import { newId } from '../ids';
import { withInstructions } from '../ledger/instructions';
import { addDecision, addGoal, completeGoal } from '../ledger/ledgerUpdate';
import type { InstructionEntry, Ledger } from '../model/ledgerTypes';
import type { Clock } from '../ports';
import type { SessionStateCell } from './stateCell';

export interface LedgerCommandsDeps {
  readonly cell: SessionStateCell;
  readonly clock: Clock;
}

/** Edits the session's ledger on a person's request. */
export class LedgerCommands {
  constructor(private readonly deps: LedgerCommandsDeps) {}

  /** Adds an active goal. Goals are never summarized. */
  async addGoal(text: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.change(addGoal(this.deps.cell.state.ledger, text, 'command', now, newId('g', now)));
  }

  /** Marks a goal completed, by id or by its text; false when there is no such goal. */
  async completeGoal(idOrText: string): Promise<boolean> {
    const next = completeGoal(this.deps.cell.state.ledger, idOrText, this.deps.clock.now());
    if (next === this.deps.cell.state.ledger) return false;
    await this.change(next);
    return true;
  }

  /** Adds a locked decision. Locked decisions are never summarized. */
  async addDecision(text: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.change(addDecision(this.deps.cell.state.ledger, text, 'command', now, newId('d', now)));
  }

  /** Keeps these workspace instructions, in place of the ones the ledger held; true when they changed. */
  async setInstructions(entries: readonly InstructionEntry[]): Promise<boolean> {
    const next = withInstructions(this.deps.cell.state.ledger, entries);
    if (next === this.deps.cell.state.ledger) return false;
    await this.change(next);
    return true;
  }

  private async change(ledger: Ledger): Promise<void> {
    const cell = this.deps.cell;
    if (ledger === cell.state.ledger) return;
    // What the user changed shows in the next request's context message: it is rendered anew (a rebase).
    cell.update({ ledger, frozenContext: undefined });
    await cell.save();
    cell.changed('ledger');
  }
}
