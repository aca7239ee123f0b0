import * as assert from 'assert';
import { TreeRefreshGate } from '../../../src/vscode/treeRefresh';

/** A tree whose shown text the test sets, counting the refreshes the gate asks for. */
function fakeTree(visible: boolean) {
  const tree = { text: 'one session', refreshes: 0, walks: 0 };
  const gate = new TreeRefreshGate(
    {
      shownText: async () => {
        tree.walks++;
        return tree.text;
      },
      refresh: () => {
        tree.refreshes++;
        gate.rootsFetched(); // VS Code fetches the roots again after a refresh
      },
      quietMs: 5,
    },
    visible,
  );
  return { tree, gate };
}

const quiet = () => new Promise((resolve) => setTimeout(resolve, 30));

/** A visible tree that VS Code has fetched, its gate settled. */
async function fetchedTree() {
  const made = fakeTree(true);
  made.gate.rootsFetched();
  await quiet();
  return made;
}

describe('the Context tree refreshes only when what it shows changed', () => {
  it('refreshes a visible tree once for a burst of changes that alter it', async () => {
    const { tree, gate } = await fetchedTree();
    tree.text = 'one session, one offloaded result';
    for (let i = 0; i < 20; i++) gate.changed();
    await quiet();
    assert.strictEqual(tree.refreshes, 1);
    gate.dispose();
  });

  it('walks the tree once per refresh: the fetch that answers it is known to show what was compared', async () => {
    const { tree, gate } = await fetchedTree();
    const before = tree.walks;
    tree.text = 'one session, one checkpoint';
    gate.changed();
    await quiet();
    assert.strictEqual(tree.refreshes, 1);
    assert.strictEqual(tree.walks - before, 1);
    gate.dispose();
  });

  it('does not refresh for changes the tree does not show', async () => {
    const { tree, gate } = await fetchedTree();
    gate.changed();
    gate.changed();
    await quiet();
    assert.strictEqual(tree.refreshes, 0);
    gate.dispose();
  });

  it('never refreshes a hidden view, and refreshes once when a view that changed is shown again', async () => {
    const { tree, gate } = await fetchedTree();
    gate.visibilityChanged(false);
    tree.text = 'two sessions';
    gate.changed();
    gate.changed();
    await quiet();
    assert.strictEqual(tree.refreshes, 0, 'hidden');
    gate.visibilityChanged(true);
    await quiet();
    assert.strictEqual(tree.refreshes, 1, 'shown again');
  });

  it('leaves a view shown for the first time to fetch everything itself', async () => {
    const { tree, gate } = fakeTree(false);
    tree.text = 'a session from this turn';
    gate.changed();
    gate.visibilityChanged(true);
    gate.rootsFetched();
    await quiet();
    assert.strictEqual(tree.refreshes, 0);
  });

  it('refreshes when a change overtook the fetch it followed', async () => {
    const { tree, gate } = fakeTree(true);
    gate.rootsFetched();
    gate.changed(); // before the fetched text is known: what VS Code shows is not certain
    await quiet();
    assert.strictEqual(tree.refreshes, 1);
    gate.dispose();
  });

  it('stops refreshing once disposed', async () => {
    const { tree, gate } = await fetchedTree();
    tree.text = 'changed';
    gate.changed();
    gate.dispose();
    await quiet();
    assert.strictEqual(tree.refreshes, 0);
  });
});
