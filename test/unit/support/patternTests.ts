/** Work counted, not timed: how many pattern tests (`RegExp.prototype.test`) a piece of work makes. */
export async function withPatternTests<T>(work: () => T | Promise<T>): Promise<{ readonly result: T; readonly tests: number }> {
  const test = RegExp.prototype.test;
  let tests = 0;
  RegExp.prototype.test = function (this: RegExp, text: string) {
    tests++;
    return test.call(this, text);
  };
  try {
    const result = await work();
    return { result, tests };
  } finally {
    RegExp.prototype.test = test;
  }
}
