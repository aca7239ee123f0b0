/** Where the command line writes: standard output for results, standard error for everything else. */
export interface Terminal {
  /** Results: the summary, the hits, the JSON object. */
  out(text: string): void;
  /** Progress, warnings and errors. */
  err(text: string): void;
  /** True when standard error is a terminal, so a progress bar can redraw in place. */
  readonly errIsTTY: boolean;
  /** Width of standard error's terminal, in columns. */
  readonly errColumns: number;
}

/** The process's own streams. */
export function processTerminal(): Terminal {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    errIsTTY: process.stderr.isTTY === true,
    // A pseudo-terminal may report 0 columns; 80 is the traditional width.
    errColumns: process.stderr.columns > 0 ? process.stderr.columns : 80,
  };
}
