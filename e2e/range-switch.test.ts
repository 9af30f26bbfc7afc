/**
 * Switching between 7, 30 and 90 days keeps the page where it was (the choice sits halfway down, by what
 * it changes), on /usage and on a key's page; a key's trend starts on the day its allowance began, not
 * with empty days before it; and the key page counts failures by error code.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expect, type Page } from '@playwright/test';
import { createDb } from '../lib/db/client.ts';
import { daysEndingWith } from '../lib/usage/queries.ts';
import { seriousAxeViolations } from '../test/support/axe.ts';
import { signUp } from '../test/support/browser.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
import { withServerAndBrowser } from '../test/support/server-and-browser.ts';

/** Short enough that the range choice is below the first screenful at phone width. */
const SHORT_PHONE = { width: 390, height: 420 };
const DAY_MS = 86_400_000;

/** Scrolls the range choice to the middle of the window, picks `days`, and returns the scroll offsets before and after. */
async function switchRange(page: Page, days: 7 | 30 | 90): Promise<[number, number]> {
  const choice = page.getByRole('navigation', { name: 'Days shown' });
  await choice.evaluate((nav) => nav.scrollIntoView({ block: 'center' }));
  const before = await page.evaluate(() => window.scrollY);
  const link = choice.getByRole('link', { name: `${days} days`, exact: true });
  await link.click();
  await page.waitForURL(new RegExp(`\\?range=${days}$`));
  await expect(link).toHaveAttribute('aria-current', 'page');
  return [before, await page.evaluate(() => window.scrollY)];
}

test('the range choice keeps the scroll position; a trend starts when its key did; failures are counted by code', async (t) => {
  const { server, browser } = await withServerAndBrowser(t);
  const base = server.baseUrl;
  const page = await (await browser.newContext({ viewport: SHORT_PHONE })).newPage();
  await signUp(page, base, 'ada@example.test');
  const fresh = server.cliJson('key', 'create', '--owner', 'ada@example.test', '--name', 'made today');
  const older = server.cliJson('key', 'create', '--owner', 'ada@example.test', '--name', 'made three days ago');
  const today = new Date().toISOString().slice(0, 10);
  const db = createDb(server.env.DATABASE_URL!);
  try {
    await db.apiKey.update({ where: { id: older.id }, data: { createdAt: new Date(Date.now() - 3 * DAY_MS) } });
  } finally {
    await db.$disconnect();
  }
  const call = await postMcp(
    server.mcpUrl,
    toolCall('service_query_compound', { compound_name: 'no such compound xyz' }),
    bearer(fresh.key),
  );
  assert.equal(call.status, 200, call.text);

  await page.goto(`${base}/usage`);
  for (const days of [30, 90, 7] as const) {
    const [before, after] = await switchRange(page, days);
    assert.ok(before > 0, 'the choice was scrolled to');
    assert.equal(after, before, `/usage: ${days} days keeps the scroll position`);
  }
  await expect(
    page.getByText(`the quota days since your first key was made (${daysEndingWith(today, 4)[0]} to ${today})`),
  ).toBeVisible();

  await page.goto(`${base}/keys/${fresh.id}`);
  const trend = page.locator('.panel', { has: page.getByRole('navigation', { name: 'Days shown' }) });
  for (const days of [90, 30] as const) {
    const [before, after] = await switchRange(page, days);
    assert.ok(before > 0, 'the choice was scrolled to');
    assert.equal(after, before, `key page: ${days} days keeps the scroll position`);
    await trend.getByText(`The last ${days} days as a table`).click();
    await expect(trend.getByRole('table', { name: 'Calls per day' }).getByRole('row')).toHaveCount(2);
    await expect(trend.getByText(`From ${today}, the day this key was made`)).toBeVisible();
    await trend.getByText(`The last ${days} days as a table`).click();
  }
  const failures = page.getByRole('table', { name: 'Failed calls by error code' });
  const row = failures.getByRole('row', { name: /compound_not_found/ });
  assert.deepEqual(await row.getByRole('cell').allInnerTexts(), ['1', '1'], 'today and over the range');
  assert.deepEqual(await seriousAxeViolations(page), [], 'the key page with its failures by code');

  // A key made three days ago: four days whatever the range.
  for (const days of [7, 30, 90]) {
    await page.goto(`${base}/keys/${older.id}?range=${days}`);
    await trend.getByText(`The last ${days} days as a table`).click();
    const rows = trend.getByRole('table', { name: 'Calls per day' }).getByRole('row');
    await expect(rows).toHaveCount(5);
    await expect(rows.nth(1).getByRole('rowheader')).toHaveText(daysEndingWith(today, 4)[0]);
  }
});
