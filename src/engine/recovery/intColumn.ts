/**
 * A growable column of one integer per id: the index keeps what it knows of each passage as columns of
 * integers outside the JavaScript heap, not as an object per passage that the collector walks.
 */
export class IntColumn {
  private values = new Int32Array(1024);

  /** The value at `id`; 0 when never set. */
  get(id: number): number {
    return id < this.values.length ? this.values[id] : 0;
  }

  set(id: number, value: number): void {
    if (id >= this.values.length) {
      const next = new Int32Array(Math.max(id + 1, this.values.length * 2));
      next.set(this.values);
      this.values = next;
    }
    this.values[id] = value;
  }
}
