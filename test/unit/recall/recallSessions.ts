/**
 * Sessions built for the recall tests: each unlike the shared transcripts (other languages, tools
 * and styles), small enough to read, and each holding facts of known kinds.
 */
import { message, textBlock, toolCallBlock, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';

/** A data-science session in notebook tools: a failed import worked around, a model trained, a metric printed. */
export function notebookSession(): Message[] {
  return [
    user('Train a gradient boosting model on data/churn.parquet and report the validation AUC.', 'nb-u1'),
    call(
      'nb-c1',
      'notebook_run_cell',
      { notebook_path: 'analysis.ipynb', cell: 'import lightgbm as lgb' },
      'First I will load the libraries.',
    ),
    result('nb-c1', "ModuleNotFoundError: No module named 'lightgbm'", true),
    call(
      'nb-c2',
      'bash',
      { command: 'pip install lightgbm==4.3.0' },
      "lightgbm is missing, so I'll install it rather than switch to sklearn's HistGradientBoosting.",
    ),
    result('nb-c2', 'Collecting lightgbm==4.3.0\nSuccessfully installed lightgbm-4.3.0\nExit code: 0'),
    call('nb-c3', 'notebook_run_cell', { notebook_path: 'analysis.ipynb', cell: 'model = train(df)' }),
    result('nb-c3', 'Fitting 5 folds for each of 12 candidates\nvalidation_auc: 0.8731'),
    call('nb-c4', 'edit_notebook', { notebook_path: 'analysis.ipynb', new_source: 'report(model)' }),
    result('nb-c4', 'ok'),
    assistant('The model reaches a validation AUC of 0.8731 with `num_leaves=63`.', 'nb-a5'),
  ];
}

/** A devops session: a Terraform apply blocked by a lock, worked around by a different command; a deploy URL printed. */
export function devopsSession(): Message[] {
  return [
    user('Roll out the new ingress config to staging with terraform.', 'ops-u1'),
    call('ops-c1', 'run_in_terminal', { command: 'terraform apply -var-file=staging.tfvars -auto-approve' }),
    result('ops-c1', 'Error: Error acquiring the state lock\n\nLock Info:\n  ID: 7f3e2b9a-1c4d-4e5f-8a9b-0c1d2e3f4a5b\n\nExit code: 1'),
    call(
      'ops-c2',
      'run_in_terminal',
      {
        command:
          'terraform force-unlock -force 7f3e2b9a-1c4d-4e5f-8a9b-0c1d2e3f4a5b && terraform apply -var-file=staging.tfvars -auto-approve',
      },
      'The lock is stale from a crashed CI job, so we should force-unlock it instead of waiting.',
    ),
    result('ops-c2', 'Apply complete! Resources: 2 added, 1 changed, 0 destroyed.\nExit code: 0'),
    call('ops-c3', 'run_in_terminal', { command: 'kubectl get ingress -n staging -o wide' }),
    result('ops-c3', 'NAME   CLASS   HOSTS                  ADDRESS\napi    nginx   staging.example.org    10.0.4.17\nExit code: 0'),
    assistant('Staging now serves the new ingress at https://staging.example.org/healthz and returns 200.', 'ops-a4'),
  ];
}

/** A user writing in German, an assistant answering in German, with a file edit carrying out the plan. */
export function germanSession(): Message[] {
  return [
    user('Bitte ändere die Zeitzone in config/app.yaml auf Europe/Berlin. Die Tests sollen weiter laufen.', 'de-u1'),
    message('de-a1', 'assistant', [
      textBlock('Ich passe `timezone` in config/app.yaml an.'),
      toolCallBlock('de-c1', 'edit_file', { path: 'config/app.yaml', old: 'UTC', new: 'Europe/Berlin' }),
    ]),
    result('de-c1', 'ok'),
    call('de-c2', 'bash', { command: 'pytest -q' }),
    result('de-c2', '41 passed in 3.20s\nExit code: 0'),
    assistant('Erledigt: alle 41 Tests laufen durch.', 'de-a3'),
  ];
}

/** A conversation without any tool call: a design question answered with a recommendation. */
export function chatOnlySession(): Message[] {
  return [
    user('Should our mobile app cache the feed in SQLite or in a key-value store?', 'chat-u1'),
    assistant(
      'For a feed that needs paging and partial updates, SQLite is the better fit. ' +
        "I won't recommend a key-value store here because you would rebuild ordering and paging by hand. " +
        'Use a `feed_items` table keyed by `(feed_id, position)`.',
      'chat-a1',
    ),
    user('No, we already ship MMKV; keep it and store pages as JSON blobs.', 'chat-u2'),
    assistant("Then we'll store each page under the key `feed:<page>` in MMKV instead of adding SQLite.", 'chat-a2'),
  ];
}

/** An agent that says nothing: calls and results only, a failing build fixed by an edit. */
export function silentAgentSession(): Message[] {
  return [
    user('make the build pass', 'quiet-u1'),
    call('quiet-c1', 'shell', { cmd: 'cargo build' }),
    result('quiet-c1', 'error[E0425]: cannot find value `conifg` in this scope\n --> src/main.rs:12:5\nExit code: 101'),
    call('quiet-c2', 'str_replace_editor', { command: 'str_replace', path: 'src/main.rs', old_str: 'conifg', new_str: 'config' }),
    result('quiet-c2', 'The file src/main.rs has been edited.'),
    call('quiet-c3', 'shell', { cmd: 'cargo build' }),
    result('quiet-c3', '   Compiling app v0.3.1\n    Finished dev [unoptimized] target(s) in 4.2s\nExit code: 0'),
    call('quiet-c4', 'shell', { cmd: 'git commit -am "Fix typo in config lookup"' }),
    result('quiet-c4', '[main 9c4e1f2] Fix typo in config lookup\n 1 file changed, 1 insertion(+), 1 deletion(-)\nExit code: 0'),
  ];
}

/** Adds `tool` messages' worth of filler results between the messages of a session, to make a long span. */
export function longSession(turns: number): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < turns; i++) {
    out.push(
      call(`long-c${i}`, 'bash', { command: `./scripts/step.sh ${i}` }, `Step ${i}: I'll run stage ${i} of the pipeline.`),
      result(
        `long-c${i}`,
        `stage ${i} output line\n`.repeat(20) + (i % 5 === 0 ? `Error: stage ${i} timed out\nExit code: 1` : 'Exit code: 0'),
      ),
    );
  }
  return out;
}
