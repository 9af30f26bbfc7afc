/**
 * Calls a limit refused (429) are counted off the hot path and written about once a second
 * (lib/usage/refused-calls.ts): a test that checks them reads the key's report again until it counts them.
 */
import type { KeyReport } from '../../lib/usage/key-report.ts';

/** `read()`'s report once today's rate-limited calls reach `count`, or after about 10 s, as it is then. */
export async function reportCountingRateLimited(
  read: () => KeyReport | Promise<KeyReport>,
  count: number,
): Promise<KeyReport> {
  for (let tries = 0; ; tries++) {
    const report = await read();
    if (report.today.reduce((sum, t) => sum + t.rateLimited, 0) >= count || tries === 40) return report;
    await new Promise((done) => setTimeout(done, 250));
  }
}
