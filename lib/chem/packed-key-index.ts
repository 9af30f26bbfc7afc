/**
 * A read-only map from strings to small integers for a large, fixed set of keys (the name table's
 * 140,000 names and synonyms). The keys are sorted and joined into one string and found by binary
 * search: no hash table, no entry and no string header per key, about a quarter of what a Map of the
 * same keys holds. A lookup costs about 17 comparisons, paid only by the queries that reach it.
 */
/** The index as plain data (a string and two integer arrays), for storing and reading back. */
export interface PackedKeys {
  text: string;
  starts: Int32Array;
  values: Int32Array;
}

export class PackedKeyIndex {
  private constructor(
    /** Every key, sorted by UTF-16 code units (JavaScript's default string order), back to back. */
    private readonly text: string,
    /** Where each key starts in `text`, and one past the last key's end. */
    private readonly starts: Int32Array,
    private readonly values: Int32Array,
  ) {}

  /** The index of a map whose values are 32-bit integers. */
  static from(byKey: ReadonlyMap<string, number>): PackedKeyIndex {
    for (const [key, value] of byKey) {
      if (!Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31)
        throw new RangeError(`the value of "${key}" is not a 32-bit integer: ${value}`);
    }
    const keys = [...byKey.keys()].sort();
    const starts = new Int32Array(keys.length + 1);
    const values = new Int32Array(keys.length);
    keys.forEach((key, i) => {
      starts[i + 1] = starts[i] + key.length;
      values[i] = byKey.get(key)!;
    });
    return new PackedKeyIndex(keys.join(''), starts, values);
  }

  /** The index `parts` describes, as `toParts()` gave them. */
  static fromParts({ text, starts, values }: PackedKeys): PackedKeyIndex {
    if (starts.length !== values.length + 1 || starts[values.length] !== text.length)
      throw new RangeError('the key starts do not match the keys and values');
    return new PackedKeyIndex(text, starts, values);
  }

  toParts(): PackedKeys {
    return { text: this.text, starts: this.starts, values: this.values };
  }

  get size(): number {
    return this.values.length;
  }

  /** The value of `key`, or undefined when the index does not hold it. */
  get(key: string): number | undefined {
    let low = 0;
    let high = this.values.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.compareWith(middle, key);
      if (order === 0) return this.values[middle];
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** Every key and its value, in key order. */
  *entries(): IterableIterator<[string, number]> {
    for (let i = 0; i < this.values.length; i++)
      yield [this.text.slice(this.starts[i], this.starts[i + 1]), this.values[i]];
  }

  /** Negative when key `i` sorts before `key`, zero when equal, positive after; no string is built. */
  private compareWith(i: number, key: string): number {
    const start = this.starts[i];
    const length = this.starts[i + 1] - start;
    const shared = Math.min(length, key.length);
    for (let k = 0; k < shared; k++) {
      const difference = this.text.charCodeAt(start + k) - key.charCodeAt(k);
      if (difference !== 0) return difference;
    }
    return length - key.length;
  }
}
