/** Environment variables changed for one test and put back when it ends. */
import type { TestContext } from 'node:test';

/** The variables each running test has changed; only the first change saves the value to restore. */
const changed = new WeakMap<TestContext, Set<string>>();

/**
 * Sets `name` to `value` (undefined: unsets it) until the test ends, then restores what was there before
 * the test's first change of it. (after hooks run in the order they were added, so restoring at every
 * call would end on the value of the second-to-last call.)
 */
export function setEnvForTest(t: TestContext, name: string, value: string | undefined): void {
  const names = changed.get(t) ?? new Set<string>();
  changed.set(t, names);
  if (!names.has(name)) {
    names.add(name);
    const saved = process.env[name];
    t.after(() => assignEnv(name, saved));
  }
  assignEnv(name, value);
}

function assignEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
