import * as assert from 'node:assert/strict';
import { AnswerActivity } from '../../../src/engine/activity/answerActivity';
import { SessionActivities } from '../../../src/engine/turn/sessionActivities';
import type { CompressionEvent } from '../../../src/engine/model/compressionEvent';
import { levelFor } from '../../../src/engine/levels';
import type { ContextSession } from '../../../src/engine/session/contextSession';
import type { PreparedContext } from '../../../src/engine/model/preparedContext';
import { sessionRig } from '../support/session';

const offload = (savedTokens: number): CompressionEvent => ({ at: 1_000, kind: 'offload', savedTokens, detail: 'Offloaded a result' });
const figures = (usage: number) => ({ usage, level: levelFor(usage), tokens: Math.round(usage * 10_000) });
const prepared = (before: number, after: number, events: CompressionEvent[] = []): PreparedContext => ({
  ...figures(after),
  before: figures(before),
  needed: { before: figures(before), after: figures(after), earlier: { tokens: 0, usage: 0 } },
  events,
  messages: [],
  budget: 10_000,
  estimated: false,
  contextTokens: 0,
  checkpoints: 0,
});

function watched(): { activities: SessionActivities; session: ContextSession; changes: () => number } {
  const activities = new SessionActivities();
  let changes = 0;
  activities.onDidChange(() => changes++);
  return { activities, session: sessionRig().session, changes: () => changes };
}

describe('what the UI shows of each session, kept from its events', () => {
  it('keeps the figures of the latest request and the compression it made, with the levels before and after', () => {
    const { activities, session, changes } = watched();
    const p = prepared(0.8, 0.5, [offload(3_000)]);
    activities.take({ kind: 'prepared', session, prepared: p });
    const now = activities.of(session.id);
    assert.equal(now.last, p);
    assert.equal(now.lastCompression?.tally.savedTokens, 3_000);
    assert.equal(now.lastCompression?.levels?.after.usage, 0.5);
    assert.equal(changes(), 1);
  });

  it('gathers what happens into the answer under way, not into one that was not started', () => {
    const { activities, session } = watched();
    activities.take({ kind: 'prepared', session, prepared: prepared(0.9, 0.9) });
    const answer = new AnswerActivity();
    activities.take({ kind: 'answerStarted', session, answer });
    activities.take({ kind: 'added', session, events: [offload(1_000)] });
    activities.take({ kind: 'prepared', session, prepared: prepared(0.6, 0.4) });
    assert.equal(activities.of(session.id).answer, answer);
    assert.equal(answer.peak?.before.usage, 0.6);
    assert.equal(answer.summary().compressions.count, 1);
  });

  it('says a compression is under way until the work ends or a request is prepared, and tells only of changes', () => {
    const { activities, session, changes } = watched();
    activities.take({ kind: 'compressing', session, what: 'Summarizing 40 messages…' });
    activities.take({ kind: 'compressing', session, what: 'Summarizing 40 messages…' });
    assert.equal(activities.of(session.id).compressing, 'Summarizing 40 messages…');
    assert.equal(changes(), 1);
    activities.take({ kind: 'compressionEnded', session });
    assert.equal(activities.of(session.id).compressing, undefined);
    activities.take({ kind: 'compressionEnded', session });
    assert.equal(changes(), 2);
    activities.take({ kind: 'compressing', session, what: 'Compressing the context…' });
    activities.take({ kind: 'prepared', session, prepared: prepared(0.5, 0.5) });
    assert.equal(activities.of(session.id).compressing, undefined);
  });

  it('leaves the latest compression as it was when messages arrive that nothing compressed', () => {
    const { activities, session, changes } = watched();
    activities.take({ kind: 'added', session, events: [offload(2_000)] });
    const record = activities.of(session.id).lastCompression;
    activities.take({ kind: 'added', session, events: [] });
    assert.equal(activities.of(session.id).lastCompression, record);
    assert.equal(changes(), 1);
  });

  it('forgets a session that was cleared', () => {
    const { activities, session } = watched();
    activities.take({ kind: 'prepared', session, prepared: prepared(0.5, 0.5) });
    activities.forget(session.id);
    assert.deepEqual(activities.of(session.id), {});
  });
});
