/** Environment variables changed for one test and put back when it ends. */
import type { TestContext } from 'node:test';

/** Sets `name` to `value` (undefined: unsets it) until the test ends, then restores what was there. */
export function setEnvForTest(t: TestContext, name: string, value: string | undefined): void {
  const saved = process.env[name];
  t.after(() => assignEnv(name, saved));
  assignEnv(name, value);
}

function assignEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
