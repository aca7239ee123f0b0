/** What a request is sent, and how full the window is: a preparation's views as the host sees them. */
import { usageOf } from '../budget';
import type { LevelThresholds } from '../levels';
import type { PreparedContext } from '../model/preparedContext';
import type { Preparation } from './requestPreparation';
import { levelOfView, type RequestView } from '../model/requestView';

/** The prepared context of a preparation's views at a budget. */
export function preparedContext(
  p: Pick<Preparation, 'view' | 'before' | 'events' | 'critical'>,
  budget: number,
  thresholds: LevelThresholds,
  checkpoints: number,
): PreparedContext {
  const figures = (view: RequestView) => ({
    tokens: view.measured.total,
    usage: usageOf(view.measured.total, budget),
    level: levelOfView(view, budget, thresholds),
  });
  return {
    messages: p.view.messages,
    ...figures(p.view),
    budget,
    estimated: p.view.measured.estimated,
    events: p.events,
    contextTokens: p.view.contextTokens,
    checkpoints,
    before: figures(p.before),
    needed: {
      before: figures(p.before),
      after: figures(p.view),
      earlier: { tokens: p.view.earlierTokens, usage: usageOf(p.view.earlierTokens, budget) },
    },
    ...(p.critical ? { critical: p.critical } : {}),
  };
}
