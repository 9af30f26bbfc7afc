/**
 * Usage beyond one key and seven days, in the browser against the production server: a developer calls
 * /mcp with two keys (a success, a rate-limited call and a failure), then reads the usage overview of all
 * their keys, chooses 30 and 90 days (in the URL, kept on reload; a bad value reads as 7), opens a key,
 * reads the trend chart's tooltip (legend order, thousands separators), and downloads the call log as
 * CSV; support downloads the same log from the support key page; nobody else gets it. Every page state
 * is checked with axe at 1280 and 390 px, where each row of the usage overview is a card with every count on the screen.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { type Browser, expect, type Locator, type Page } from '@playwright/test';
import { createDb } from '../lib/db/client.ts';
import { displayKey, keyDisplayParts } from '../lib/keys/format.ts';
import { daysEndingWith } from '../lib/usage/queries.ts';
import { seriousAxeViolations } from '../test/support/axe.ts';
import {
  assertFitsPhoneWidth,
  DESKTOP,
  launchBrowser,
  PHONE,
  saveScreenshot,
  signIn,
  signUp,
} from '../test/support/browser.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
import { startTestServer, type TestServer } from '../test/support/test-server.ts';

/** Shorter than the longest range, so the 90-day view must say its CSV covers less. */
const RETENTION_DAYS = 30;
const PASSWORD = 'correct horse battery staple';

let server: TestServer;
let browser: Browser;

before(async () => {
  server = await startTestServer({ CALL_LOG_RETENTION_DAYS: String(RETENTION_DAYS) });
  try {
    browser = await launchBrowser();
  } catch (error) {
    await server.stop();
    throw error;
  }
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Free keys allow 1 call/s: a pause lets the next call through. */
const pause = (ms = 1_100) => new Promise((done) => setTimeout(done, ms));

const queryCompound = (secret: string, compound: string) =>
  postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: compound }), bearer(secret));

function cliKey(owner: string, name: string): { id: string; key: string } {
  return JSON.parse(server.cliOk('key', 'create', '--owner', owner, '--name', name, '--json'));
}

const chartsFit = (page: Page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll('.chart svg')].every((svg) => svg.getBoundingClientRect().right <= window.innerWidth),
  );

/** axe on the page as it is, at 1280 px and at 390 px (after the charts redraw); no serious violation. */
async function axeAtBothWidths(page: Page, state: string) {
  assert.deepEqual(await seriousAxeViolations(page), [], `${state} at 1280 px`);
  await page.setViewportSize(PHONE);
  await chartsFit(page);
  assert.deepEqual(await seriousAxeViolations(page), [], `${state} at 390 px`);
  await assertFitsPhoneWidth(page);
  await page.setViewportSize(DESKTOP);
}

const cellTexts = (row: Locator) => row.getByRole('cell').allInnerTexts();

/** A downloaded CSV's lines (CRLF-separated, the last one ended too). */
async function download(page: Page, link: Locator): Promise<{ name: string; lines: string[] }> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const bytes = readFileSync((await file.path())!);
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], "UTF-8's byte-order mark first, for Excel");
  const text = bytes.subarray(3).toString('utf8');
  assert.ok(text.endsWith('\r\n'), 'the last line is ended');
  return { name: file.suggestedFilename(), lines: text.slice(0, -2).split('\r\n') };
}

test('a developer reads the usage of all their keys over 7, 30 and 90 days, and exports a key’s calls as CSV', async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const serverErrors: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 500) serverErrors.push(`${r.status()} ${r.url()}`);
  });
  await signUp(page, server.baseUrl, 'ada@example.test', PASSWORD);
  const laptop = cliKey('ada@example.test', 'laptop');
  const ci = cliKey('ada@example.test', 'ci');
  const bulk = cliKey('ada@example.test', 'bulk');

  // laptop: a success and a rate-limited call, then a failure; ci: one success. The first two are sent
  // together, so one is refused however long the other takes to answer on a busy machine.
  const pair = await Promise.all([queryCompound(laptop.key, 'ethanol'), queryCompound(laptop.key, 'methanol')]);
  assert.deepEqual(
    pair.map((answer) => answer.status).sort(),
    [200, 429],
    pair.map((answer) => answer.text.slice(0, 300)).join('\n'),
  );
  await pause();
  assert.equal((await queryCompound(laptop.key, 'no such compound xyz')).status, 200);
  assert.equal((await queryCompound(ci.key, 'ethanol')).status, 200);
  // bulk: an earlier day with counts in the thousands, written where the daily totals live.
  const threeDaysAgo = daysEndingWith(new Date().toISOString().slice(0, 10), 4)[0];
  const db = createDb(server.env.DATABASE_URL!);
  try {
    await db.dailyUsage.create({
      data: {
        keyId: bulk.id,
        day: threeDaysAgo,
        tool: 'service_query_compound',
        successes: 1234,
        failures: 56,
        rateLimited: 7,
      },
    });
  } finally {
    await db.$disconnect();
  }

  // The overview, from the header's link: every key today and over the last 7 days, and per tool.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
  await page.waitForURL(`${server.baseUrl}/usage`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Usage of your keys');
  const perKey = page.getByRole('table', { name: 'Calls per key' });
  await expect(perKey.getByRole('columnheader', { name: 'Last 7 days (calls)' })).toBeVisible();
  assert.deepEqual(await cellTexts(perKey.getByRole('row', { name: /^laptop / })), [
    'active',
    '1',
    '1',
    '1',
    '1',
    '1',
    '1',
  ]);
  assert.deepEqual(await cellTexts(perKey.getByRole('row', { name: /^ci / })), [
    'active',
    '1',
    '0',
    '0',
    '1',
    '0',
    '0',
  ]);
  assert.deepEqual(await cellTexts(perKey.getByRole('row', { name: /^bulk / })), [
    'active',
    '0',
    '0',
    '0',
    '1,234',
    '56',
    '7',
  ]);
  assert.deepEqual(await cellTexts(perKey.getByRole('row', { name: /^Total / })), ['2', '1', '1', '1,236', '57', '8']);
  const perTool = page.getByRole('table', { name: 'Calls per tool, all keys' });
  assert.deepEqual(await cellTexts(perTool.getByRole('row', { name: /^service_query_compound / })), [
    '2',
    '1',
    '1',
    '1,236',
    '57',
    '8',
  ]);
  await axeAtBothWidths(page, 'the usage overview');
  await saveScreenshot(page, 'usage-overview-1280');

  // On a phone each key is a card: every count is on the screen, under its label, with nothing to scroll.
  await page.setViewportSize(PHONE);
  const region = page.getByRole('region', { name: 'Calls per key' });
  assert.equal(
    await region.evaluate((el) => el.scrollWidth > el.clientWidth),
    false,
    'at 390 px the table fits its region',
  );
  const laptopCells = perKey.getByRole('row', { name: /^laptop / }).getByRole('cell');
  for (const cell of await laptopCells.all()) {
    const box = await cell.boundingBox();
    assert.ok(
      box && box.x >= 0 && box.x + box.width <= PHONE.width,
      `a laptop cell is on the screen: ${JSON.stringify(box)}`,
    );
  }
  assert.equal(
    await laptopCells.nth(1).evaluate((cell) => getComputedStyle(cell, '::before').content),
    '"Today: successes"',
  );
  await saveScreenshot(page, 'usage-overview-390');
  await page.setViewportSize(DESKTOP);

  // 30 days: in the URL, kept on reload.
  await page.getByRole('link', { name: '30 days', exact: true }).click();
  await page.waitForURL(`${server.baseUrl}/usage?range=30`);
  await page.reload();
  await expect(page.getByRole('link', { name: '30 days', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(perKey.getByRole('columnheader', { name: 'Last 30 days (calls)' })).toBeVisible();
  await axeAtBothWidths(page, 'the usage overview over 30 days');

  // A value that is not a choice reads as 7 days, no error.
  const odd = await page.goto(`${server.baseUrl}/usage?range=abc`);
  assert.equal(odd?.status(), 200);
  await expect(page.getByRole('link', { name: '7 days', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(perKey.getByRole('columnheader', { name: 'Last 7 days (calls)' })).toBeVisible();

  // A key's page keeps the range, and its trend chart has the rate-limited series, as today's chart.
  await page.goto(`${server.baseUrl}/usage?range=30`);
  await perKey.getByRole('link', { name: 'laptop' }).click();
  await page.waitForURL(`${server.baseUrl}/keys/${laptop.id}?range=30`);
  await expect(page.getByRole('heading', { name: 'Last 30 days', exact: true })).toBeVisible();
  const trend = page.locator('.panel', { has: page.getByRole('heading', { name: 'Last 30 days', exact: true }) });
  await expect(trend.locator('.recharts-legend-item-text')).toHaveText(['Successes', 'Failures', 'Rate-limited']);
  await trend.getByText('The last 30 days as a table').click();
  const days = trend.getByRole('table', { name: 'Calls per day' });
  // The key was made today: its trend is one day long whatever the range, not 29 empty days and today.
  await expect(days.getByRole('row')).toHaveCount(2);
  assert.deepEqual(await cellTexts(days.getByRole('row').last()), ['1', '1', '1']);
  await axeAtBothWidths(page, 'the key page over 30 days');
  // The live panels poll with the same range: the trend keeps its length.
  await page.waitForResponse((r) => r.url().endsWith(`/api/portal/keys/${laptop.id}/usage?range=30`) && r.ok(), {
    timeout: 15_000,
  });
  await expect(days.getByRole('row')).toHaveCount(2);

  // The CSV of the range: the three calls, oldest first, with the secret they were made with.
  const csvLink = page.getByRole('link', { name: 'Download the calls of the last 30 days (CSV)' });
  await expect(page.getByText(`The call log keeps each call for ${RETENTION_DAYS} days.`)).toBeVisible();
  const owners = await download(page, csvLink);
  assert.match(
    owners.name,
    new RegExp(`^chemflow-calls-${laptop.id}-\\d{4}-\\d\\d-\\d\\d-to-\\d{4}-\\d\\d-\\d\\d\\.csv$`),
  );
  const made = displayKey(keyDisplayParts(laptop.key));
  assert.equal(owners.lines[0], 'time (UTC),tool,outcome,error code,latency ms,key');
  const rows = owners.lines.slice(1).map((line) => line.split(',').filter((_, i) => i !== 0 && i !== 4));
  // The success and the refusal came in the same moment, in either order; the failure came after.
  assert.deepEqual(
    [...rows.slice(0, 2).sort(), ...rows.slice(2)],
    [
      ['service_query_compound', 'rate_limited', 'rate_limit_exceeded', made],
      ['service_query_compound', 'success', '', made],
      ['service_query_compound', 'failure', 'compound_not_found', made],
    ],
    'the CSV has the calls sent, and the overview counted the same',
  );
  for (const line of owners.lines.slice(1)) assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,/);

  // 90 days is longer than the call log is kept: the page says the CSV covers less.
  await page.getByRole('link', { name: '90 days', exact: true }).click();
  await page.waitForURL(`${server.baseUrl}/keys/${laptop.id}?range=90`);
  await expect(page.getByRole('note')).toHaveText(
    `The call log keeps each call for ${RETENTION_DAYS} days, so the CSV covers only the last ${RETENTION_DAYS} days of this range. The chart and the table count all 90 days.`,
  );
  await axeAtBothWidths(page, 'the key page over 90 days');

  // The tooltip: items in the legend's order, counts with thousands separators.
  await page.goto(`${server.baseUrl}/keys/${bulk.id}`);
  const bulkTrend = page.locator('.panel', { has: page.getByRole('heading', { name: 'Last 7 days', exact: true }) });
  await bulkTrend.locator('.recharts-bar-rectangle').first().hover();
  const tooltip = bulkTrend.locator('.recharts-tooltip-wrapper');
  await expect(tooltip.locator('.recharts-tooltip-label')).toHaveText(threeDaysAgo);
  await expect(tooltip.locator('.recharts-tooltip-item')).toHaveText([
    'Successes : 1,234',
    'Failures : 56',
    'Rate-limited : 7',
  ]);
  await axeAtBothWidths(page, 'the key page with its tooltip shown');

  assert.deepEqual(serverErrors, []);
  await context.close();
});

test('the call log CSV goes to the owner and to staff only: another developer gets 404, a signed-out visitor 401', async () => {
  server.cliOk('user', 'create', '--email', 'cleo@example.test', '--password', PASSWORD);
  server.cliOk('user', 'create', '--email', 'dan@example.test', '--password', PASSWORD);
  server.cliOk('user', 'create', '--email', 'grace@example.test', '--password', PASSWORD, '--role', 'support');
  const key = cliKey('cleo@example.test', 'agent');
  assert.equal((await queryCompound(key.key, 'ethanol')).status, 200);
  const mine = `${server.baseUrl}/api/portal/keys/${key.id}/calls.csv?range=7`;
  const staff = `${server.baseUrl}/api/support/keys/${key.id}/calls.csv?range=7`;

  const signedOut = await fetch(mine);
  assert.equal(signedOut.status, 401);
  assert.match(await signedOut.text(), /Sign in/);
  assert.equal((await fetch(staff)).status, 401);

  const asUser = async (email: string, next: string) => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server.baseUrl, email, PASSWORD, next);
    return { context, page };
  };
  const owner = await asUser('cleo@example.test', '/keys');
  const answer = await owner.page.request.get(mine);
  assert.equal(answer.status(), 200);
  assert.equal(answer.headers()['content-type'], 'text/csv; charset=utf-8');
  assert.match(answer.headers()['content-disposition'], /^attachment; filename="chemflow-calls-.+\.csv"$/);
  const ownerLines = (await answer.text()).trim().split('\r\n');
  assert.equal(ownerLines.length, 2, 'header and the one call');
  assert.equal((await owner.page.request.get(staff)).status(), 404, 'the staff route is for staff');
  await owner.context.close();

  const other = await asUser('dan@example.test', '/keys');
  for (const url of [mine, staff, mine.replace(key.id, 'no-such-key')]) {
    const refused = await other.page.request.get(url);
    assert.equal(refused.status(), 404, url);
    assert.doesNotMatch(await refused.text(), /ethanol|service_query/);
  }
  await other.context.close();

  // Support exports from the support key page, which shows the same panels and range choice.
  const support = await asUser('grace@example.test', `/support/keys/${key.id}?range=30`);
  await expect(support.page.getByRole('link', { name: '30 days', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const csv = await download(
    support.page,
    support.page.getByRole('link', { name: 'Download the calls of the last 30 days (CSV)' }),
  );
  assert.deepEqual(csv.lines, ownerLines, 'staff get the same log as the owner');
  await axeAtBothWidths(support.page, 'the support key page over 30 days');
  await support.context.close();
});
