/**
 * Accessibility checks in the browser suites: axe-core (the engine behind Lighthouse's and Deque's
 * checks) run in the page, reporting the violations of serious or critical impact. The script goes in
 * through the DevTools protocol, so the portal's Content-Security-Policy does not stop it.
 */

import assert from 'node:assert/strict';
import type { Page } from '@playwright/test';
import axe from 'axe-core';

/**
 * The serious and critical axe violations on the page, or within `selector` when given (a dialog, a
 * table), one line each: rule, help text and the elements it found. An empty list is a pass.
 */
export async function seriousAxeViolations(page: Page, selector?: string): Promise<string[]> {
  // Right after a server action re-renders the page, its <title> can be missing for a moment: let it
  // arrive before judging the document. A page that never gets one still fails, on axe's document-title rule.
  await page.waitForFunction(() => document.title !== '', undefined, { timeout: 5_000 }).catch(() => {});
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async (include) => {
    const engine = (window as unknown as { axe: typeof axe }).axe;
    const results = await engine.run(include ? { include: [include] } : document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, selector);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

/** Fails, listing them, when the page (or `selector` within it) has serious or critical violations. */
export async function assertNoSeriousAxe(page: Page, what: string, selector?: string): Promise<void> {
  assert.deepEqual(await seriousAxeViolations(page, selector), [], `axe: ${what}`);
}
