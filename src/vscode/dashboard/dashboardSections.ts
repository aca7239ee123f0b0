/**
 * The dashboard page as parts: each rendered whole from the engine's model, and only the parts
 * whose HTML changed are sent to the webview, which replaces just those.
 */
import type { DashboardModel } from '../../engine/host/display';
import type { LevelThresholds } from '../../engine/host/settings';
import type { SectionId } from './dashboardProtocol';
import { checkpointsHtml } from './sections/checkpointsHtml';
import { compositionHtml } from './sections/compositionHtml';
import { headerHtml, noSessionHtml } from './sections/headerHtml';
import { itemsHtml } from './sections/itemsHtml';
import { previewHtml, type PreviewState } from './sections/previewHtml';
import { timelineHtml } from './sections/timelineHtml';

export type Sections = Readonly<Record<SectionId, string>>;

/** Every part of the page for a model (or for no session). */
export function renderSections(model: DashboardModel | undefined, preview: PreviewState, thresholds: LevelThresholds): Sections {
  if (!model) return { header: noSessionHtml(), preview: '', composition: '', items: '', timeline: '', checkpoints: '' };
  const budget = model.composition.budget;
  return {
    header: headerHtml(model, preview.kind !== 'none'),
    preview: previewHtml(preview),
    composition: compositionHtml(model.composition),
    items: itemsHtml(model.items, budget),
    timeline: timelineHtml(model.timeline, thresholds, budget),
    checkpoints: checkpointsHtml(model.checkpoints, model.retired),
  };
}

/** The parts that differ from what the webview shows; none when nothing changed. */
export function changedSections(shown: Sections | undefined, next: Sections): Partial<Record<SectionId, string>> {
  const changed: Partial<Record<SectionId, string>> = {};
  for (const id of Object.keys(next) as SectionId[]) if (shown?.[id] !== next[id]) changed[id] = next[id];
  return changed;
}
