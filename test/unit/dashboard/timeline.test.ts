import * as assert from 'node:assert/strict';
import { timelineModel } from '../../../src/engine/dashboard/timelineModel';
import { appendTimelinePoint, MAX_TIMELINE_POINTS, type TimelinePoint } from '../../../src/engine/model/timeline';
import { emptyState, parseSessionState } from '../../../src/engine/model/sessionState';
import { exchange, furnishedSession, ROOMY_BUDGET } from './dashboardFixtures';

const point = (i: number, level: TimelinePoint['level'] = 'GREEN'): TimelinePoint => ({
  at: i,
  before: 100 + i,
  after: 100 + i,
  level,
  budget: 1_000,
  historyEnd: i,
});

describe('dashboard: the timeline of a session', () => {
  it('records every request with its tokens before and after the steps and its level', async () => {
    const { session } = await furnishedSession();
    const first = await session.prepare(ROOMY_BUDGET);
    await exchange(session, 1);
    const compressed = await session.compress(ROOMY_BUDGET);
    const timeline = session.state.timeline;
    assert.equal(timeline.length, 2);
    assert.deepEqual(
      timeline.map((p) => [p.before, p.after, p.level, p.budget]),
      [
        [first.before.tokens, first.tokens, first.level, ROOMY_BUDGET],
        [compressed.before.tokens, compressed.tokens, compressed.level, ROOMY_BUDGET],
      ],
    );
    assert.ok(timeline[1].after < timeline[1].before, 'the compression brought the context down');
  });

  it('places every compression on the request it belongs to, with the tokens it saved', async () => {
    const { session } = await furnishedSession();
    await session.prepare(ROOMY_BUDGET);
    await exchange(session, 1);
    await session.compress(ROOMY_BUDGET);
    const model = timelineModel(session.state);
    const offload = model.markers.find((m) => m.kind === 'offload');
    assert.equal(offload?.request, 1, 'the log offloaded on arrival shows at the first request');
    assert.ok((offload?.savedTokens ?? 0) > 4_000);
    const checkpoint = model.markers.find((m) => m.kind === 'checkpoint');
    assert.equal(checkpoint?.request, 2);
    assert.ok((checkpoint?.savedTokens ?? 0) > 0);
    assert.ok(
      model.markers.some((m) => m.kind === 'snapshot' && m.request === 2),
      'the snapshot before it too',
    );
  });

  it('shows what happened since the last request one request further on', async () => {
    const { session } = await furnishedSession();
    await session.prepare(ROOMY_BUDGET);
    await session.drop('result:c-read');
    const model = timelineModel(session.state);
    assert.deepEqual(
      model.markers.filter((m) => m.kind === 'drop').map((m) => m.request),
      [2],
    );
  });

  it('stays compact: past the limit the oldest half is merged in pairs, keeping the count of requests and the worst level', () => {
    let timeline: TimelinePoint[] = [];
    for (let i = 1; i <= MAX_TIMELINE_POINTS + 1; i++) timeline = appendTimelinePoint(timeline, point(i, i === 2 ? 'RED' : 'GREEN'));
    assert.ok(timeline.length <= MAX_TIMELINE_POINTS);
    assert.equal(
      timeline.reduce((n, p) => n + (p.requests ?? 1), 0),
      MAX_TIMELINE_POINTS + 1,
      'every request is still counted',
    );
    assert.deepEqual(timeline[0], { at: 1, before: 102, after: 102, level: 'RED', budget: 1_000, historyEnd: 2, requests: 2 });
    const model = timelineModel({ ...emptyState('s', 0), timeline });
    assert.equal(model.requests, MAX_TIMELINE_POINTS + 1);
    assert.equal(model.points[model.points.length - 1].request, MAX_TIMELINE_POINTS + 1);
  });

  it('reads a state file written before the timeline existed as an empty timeline', () => {
    const { timeline: _t, retiredCheckpoints: _r, ...old } = emptyState('s-20260101-000000-abc', 0);
    const parsed = parseSessionState(JSON.stringify(old));
    assert.deepEqual(parsed?.timeline, []);
    assert.deepEqual(parsed?.retiredCheckpoints, []);
  });
});
