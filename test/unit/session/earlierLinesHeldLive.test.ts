import * as assert from 'node:assert/strict';

import { RequestRenderer } from '../../../src/engine/session/requestRenderer';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import type { EarlierLine } from '../../../src/engine/model/earlierLine';
import { assistant, call, result, user } from '../support/builders';
import { sessionRig } from '../support/session';
import { CharTokenizer } from '../support/fakes';

const line = (text: string, score: number, order: number): EarlierLine => ({
  text: `- ${text}`,
  key: text.slice(0, 60),
  kind: 'outcome',
  score,
  tokens: 60,
  order,
});

describe('the earlier lines beside the live messages', () => {
  it('give the room of a line a live message still shows to the next line', async () => {
    const rig = sessionRig();
    await rig.session.add([user('Find why the nightly export drops rows.')]);
    const shownLive = 'The exporter skips rows whose batch id repeats within one flush window';
    const next = 'Rows dropped on the last run: 412 of 90,118, all from batch 77';
    const byCall = 'pytest tests/test_export.py::test_repeated_batch passed in 0.41s';
    const state = {
      ...rig.session.state,
      earlierLines: [line(shownLive, 0.9, 1), line(next, 0.6, 2), line(byCall, 0.5, 3)],
      earlierRoom: 110,
      watermark: rig.session.state.active[0].id,
      active: [
        ...rig.session.state.active,
        assistant(`Found it. ${shownLive}, so the second write wins.`),
        call('t1', 'run_command', { command: 'pytest tests/test_export.py' }),
        result('t1', `collected 1 item\n${byCall}`),
      ],
    };
    const view = await new RequestRenderer(new TokenCounter(new CharTokenizer()), DEFAULT_OPTIONS).render(state, 20_000);
    const earlier = view.sections.find((s) => s.part === 'earlier')?.text ?? '';
    assert.ok(earlier.includes(next), `the next line takes the room:\n${earlier}`);
    assert.ok(!earlier.includes(shownLive), 'a line an assistant message of the live context says is not shown twice');
    assert.ok(!earlier.includes(byCall), 'nor one a live tool result printed');
  });

  it('show a pool whose lines all fit in less than the least room worth a section, whole', async () => {
    const rig = sessionRig();
    await rig.session.add([user('Find why the nightly export drops rows.')]);
    const finding = 'The exporter skips rows whose batch id repeats';
    const state = {
      ...rig.session.state,
      earlierLines: [{ ...line(finding, 0.9, 1), tokens: 12 }],
      earlierRoom: 2_000,
      watermark: rig.session.state.active[0].id,
    };
    const view = await new RequestRenderer(new TokenCounter(new CharTokenizer()), DEFAULT_OPTIONS).render(state, 20_000);
    const earlier = view.sections.find((s) => s.part === 'earlier')?.text ?? '';
    assert.ok(earlier.includes(finding), 'the one line of the pool is shown');
  });
});
