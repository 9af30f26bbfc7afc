/**
 * The developer's key stories in the browser against the production server: create a key and copy its
 * secret, call /mcp with it and watch the calls arrive in the live usage panels; run out of daily quota,
 * also across a reissue; disable a key; and never see another developer's key. /mcp is called from the
 * test, as a client would.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, expect, type Page } from '@playwright/test';
import type { KeyReport } from '../lib/usage/key-report.ts';
import { seriousAxeViolations } from '../test/support/axe.ts';
import { assertFitsPhoneWidth, DESKTOP, PHONE, saveScreenshot, signUp } from '../test/support/browser.ts';
import { errorBody, toolResult } from '../test/support/mcp-answers.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
import { reportCountingRateLimited } from '../test/support/rate-limited-report.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import type { TestServer } from '../test/support/test-server.ts';

let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;

before(async () => {
  ({ server, browser, close } = await startServerAndBrowser());
});
after(() => close?.());

/** Long enough for the live panels' 5 s refresh (plus a slow first render). */
const REFRESH_WAIT = { timeout: 15_000 };

async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

/** Free keys allow 1 call/s: space calls out as a client within its limit would. */
const pause = (ms = 1_100) => new Promise((done) => setTimeout(done, ms));

const queryCompound = (secret: string, compound: string) =>
  postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: compound }), bearer(secret));

/** A key issued by the operator CLI for an existing account. */
/** A 429 is counted off the hot path, about once a second: wait until the key's usage holds it. */
async function rateLimitedCallWritten(page: Page, keyId: string): Promise<void> {
  const usage = () => page.request.get(`${server.baseUrl}/api/portal/keys/${keyId}/usage`).then((r) => r.json());
  const report = await reportCountingRateLimited(usage, 1);
  assert.equal(
    report.today.reduce((sum, t) => sum + t.rateLimited, 0),
    1,
    'the 429 is counted',
  );
}

function cliKey(owner: string, ...options: string[]): { id: string; key: string } {
  const result = server.cli('key', 'create', '--owner', owner, ...options, '--json');
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** Charts redraw at the new width after their resize observer fires. */
const chartsFit = (page: Page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll('.chart svg')].every((svg) => svg.getBoundingClientRect().right <= window.innerWidth),
  );

async function screenshotsAtBothWidths(page: Page, name: string) {
  await chartsFit(page);
  await saveScreenshot(page, `${name}-1280`);
  await page.setViewportSize(PHONE);
  await chartsFit(page);
  await saveScreenshot(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
  await assertFitsPhoneWidth(page);
}

test('a new developer creates a key, copies it, calls /mcp and sees both calls in the live usage panels', async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  const page = await context.newPage();
  // Errors a developer's browser would log (hydration mismatches, failed usage polls). Resource 404s are
  // left out of the console check: the header links to portal pages that may not exist in every build.
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      consoleErrors.push(message.text());
  });
  const failedPolls: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/portal/') && !response.ok())
      failedPolls.push(`${response.status()} ${response.url()}`);
  });
  await signUp(page, server.baseUrl, 'ada@example.test');

  await page.getByText('You have no API keys yet').waitFor();
  await page.getByRole('button', { name: 'Create your first key' }).click();
  const form = page.getByRole('dialog', { name: 'Create a key' });
  await form.getByLabel('Name').fill('laptop');
  await form.getByLabel('30 days').check();
  await form.getByRole('button', { name: 'Create key' }).click();

  const reveal = page.getByRole('dialog', { name: 'Key "laptop" created' });
  await reveal.waitFor();
  const secret = await reveal.getByLabel(/Your new API key/).inputValue();
  assert.match(secret, /^cf_[0-9A-Za-z]{38}$/);
  await expect(reveal.getByText('This is the only time the key is shown.')).toBeVisible();
  const config = JSON.parse((await reveal.getByLabel('MCP client configuration').textContent())!);
  assert.deepEqual(config, {
    mcpServers: {
      chemflow: { type: 'http', url: `${server.baseUrl}/mcp`, headers: { Authorization: `Bearer ${secret}` } },
    },
  });
  const curl = (await reveal.getByLabel('curl example').textContent())!;
  for (const part of [
    `curl -s ${server.baseUrl}/mcp`,
    `'Accept: application/json, text/event-stream'`,
    `'Authorization: Bearer ${secret}'`,
    '"name":"service_query_compound"',
    '"compound_name":"ethanol"',
  ]) {
    assert.ok(curl.includes(part), `the curl example has ${part}`);
  }

  await reveal.getByRole('button', { name: 'Copy key' }).click();
  await reveal.getByText('Copied.').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
  await saveScreenshot(page, 'key-created-1280');

  // Escape first shows why closing loses the key; only a second Escape (or "I have stored it") closes.
  await page.keyboard.press('Escape');
  await reveal.getByRole('alert').filter({ hasText: 'Press Escape once more to close' }).waitFor();
  await expect(reveal).toBeVisible();
  await reveal.getByRole('button', { name: 'I have stored it' }).click();
  await expect(reveal).toBeHidden();
  await expect
    .poll(async () => (await page.content()).includes(secret), { message: 'the secret is gone from the page' })
    .toBe(false);

  const row = page.getByRole('row', { name: /laptop/ });
  await expect(row.getByText('0 / 1,000 calls')).toBeVisible();
  await expect(row.getByText('in 30 days')).toBeVisible();
  await expect(row.getByText('active')).toBeVisible();
  await row.getByRole('link', { name: 'laptop' }).click();
  await page.waitForURL(/\/keys\/[^/]+$/);
  await page.getByText('No calls today yet').waitFor();
  // Proves the numbers below arrive by the panels' own refresh: a reload would drop this marker.
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  const ok = await queryCompound(secret, 'ethanol');
  assert.equal(ok.status, 200);
  assert.ok(!toolResult(ok).isError, ok.text);
  await pause();
  const failed = await queryCompound(secret, 'no such compound xyz');
  assert.equal(failed.status, 200);
  assert.equal(toolResult(failed).isError, true, failed.text);

  const today = page.getByRole('table', { name: "Today's calls by tool" });
  await expect(today.getByRole('row', { name: /service_query_compound/ }).getByRole('cell')).toHaveText(
    ['1', '1', '0'],
    REFRESH_WAIT,
  );
  const lastCalls = page.getByRole('table', { name: 'Last calls' }).getByRole('row');
  await expect(lastCalls).toHaveCount(3); // header + 2 calls, newest first
  await expect(lastCalls.nth(1).getByRole('cell')).toContainText([
    'service_query_compound',
    'failure',
    /ms$/,
    'compound_not_found',
  ]);
  await expect(lastCalls.nth(2).getByRole('cell')).toContainText(['service_query_compound', 'success', /ms$/, 'none']);
  await expect(page.getByText('2 / 1,000 calls')).toBeVisible();
  await expect(page.getByText(/^Updated \d\d:\d\d:\d\d UTC$/)).toBeVisible();
  assert.equal(
    await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    true,
    'the page was not reloaded',
  );

  // A hidden tab stops polling; showing it again resumes.
  const setHidden = (hidden: boolean) =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'hidden', { configurable: true, value });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  await setHidden(true);
  await page.getByText('Refreshing paused while this tab is hidden.').waitFor();
  await setHidden(false);
  await page.getByText('Refreshes every 5 s.').waitFor();
  await screenshotsAtBothWidths(page, 'key-detail');

  await page.getByRole('link', { name: 'All keys' }).click();
  await expect(page.getByRole('row', { name: /laptop/ }).getByText('2 / 1,000 calls')).toBeVisible();
  await screenshotsAtBothWidths(page, 'keys');
  assert.deepEqual(consoleErrors, [], 'no errors in the browser console (hydration included)');
  assert.deepEqual(failedPolls, [], 'every usage refresh succeeded');
  await context.close();
});

test('a key with a small daily quota runs out: "2 / 2" and "Daily quota reached" in the UI, 429 from /mcp', async () => {
  const page = await freshPage();
  await signUp(page, server.baseUrl, 'bea@example.test');
  const { id, key } = cliKey('bea@example.test', '--name', 'tiny', '--daily-quota', '2');

  assert.equal((await queryCompound(key, 'ethanol')).status, 200);
  await pause();
  assert.equal((await queryCompound(key, 'methanol')).status, 200);
  await pause();
  const refused = await queryCompound(key, 'acetone');
  assert.equal(refused.status, 429, refused.text);
  await rateLimitedCallWritten(page, id);

  await page.goto(`${server.baseUrl}/keys`);
  await expect(page.getByRole('row', { name: /tiny/ }).getByText('2 / 2 calls')).toBeVisible();
  await page.getByRole('link', { name: 'tiny' }).click();
  await page.waitForURL(`${server.baseUrl}/keys/${id}`);
  await expect(page.getByText('Daily quota reached:')).toBeVisible();
  await expect(page.getByText('2 / 2 calls')).toBeVisible();
  await expect(page.getByText('0 calls', { exact: true })).toBeVisible(); // remaining today
  const today = page.getByRole('table', { name: "Today's calls by tool" });
  await expect(today.getByRole('row', { name: /service_query_compound/ }).getByRole('cell')).toHaveText([
    '2',
    '0',
    '1',
  ]);
  await page.context().close();
});

test('a key that ran out of quota and is reissued on its page is still out of quota: same numbers, the old secret named, 429 from /mcp', async () => {
  const page = await freshPage();
  await signUp(page, server.baseUrl, 'gus@example.test');
  const old = cliKey('gus@example.test', '--name', 'rotated', '--daily-quota', '2');
  const oldDisplay = `cf_${old.key.slice(3, 7)}…${old.key.slice(-4)}`;
  assert.equal((await queryCompound(old.key, 'ethanol')).status, 200);
  await pause();
  assert.equal((await queryCompound(old.key, 'methanol')).status, 200);

  await page.goto(`${server.baseUrl}/keys/${old.id}`);
  await page.getByRole('button', { name: 'Reissue…' }).click();
  await page.getByRole('dialog', { name: 'Reissue this key?' }).getByRole('button', { name: 'Reissue key' }).click();
  const reveal = page.getByRole('dialog', { name: 'Key reissued: your new secret' });
  const secret = await reveal.getByLabel(/Your new API key/).inputValue();
  await reveal.getByRole('button', { name: 'I have stored it: open the new key' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/keys/') && !url.pathname.endsWith(old.id));
  const successorId = new URL(page.url()).pathname.split('/').pop()!;

  await pause();
  const refused = await queryCompound(secret, 'acetone');
  assert.equal(refused.status, 429, refused.text);
  assert.equal(errorBody(refused).reason, 'daily_quota');
  assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
  await rateLimitedCallWritten(page, successorId);

  await page.reload();
  await expect(page.getByText('Daily quota reached:')).toBeVisible();
  await expect(page.getByText('2 / 2 calls')).toBeVisible();
  await expect(page.getByText('shares one quota with the 1 other key of its reissue chain')).toBeVisible();
  const lastCalls = page.getByRole('table', { name: 'Last calls' }).getByRole('row');
  await expect(lastCalls).toHaveCount(4); // header, the successor's refusal, the old secret's two calls
  await expect(lastCalls.nth(1)).not.toContainText(' with ');
  for (const n of [2, 3])
    await expect(lastCalls.nth(n).getByRole('cell').nth(1)).toHaveText(`service_query_compound with ${oldDisplay}`);

  const usage: KeyReport = await (
    await page.request.get(`${server.baseUrl}/api/portal/keys/${successorId}/usage`)
  ).json();
  assert.deepEqual(
    [usage.usedToday, usage.remainingToday, usage.lastCalls.map((c) => c.otherKey?.display ?? null)],
    [2, 0, [null, oldDisplay, oldDisplay]],
  );
  await page.goto(`${server.baseUrl}/keys`);
  // One row for the chain: the old key is folded under its successor, which counts the chain's calls.
  const chain = page.getByRole('row', { name: /rotated/ });
  await expect(chain).toHaveCount(1);
  await expect(chain.getByText('2 / 2 calls')).toBeVisible();
  await expect(chain.getByText('Replaces 1 older key')).toBeVisible();
  await page.context().close();
});

test('a developer disables a key after confirming, and /mcp answers 401 from then on', async () => {
  const page = await freshPage();
  await signUp(page, server.baseUrl, 'cy@example.test');
  const { id, key } = cliKey('cy@example.test', '--name', 'ci runner');
  assert.equal((await queryCompound(key, 'ethanol')).status, 200);

  await page.goto(`${server.baseUrl}/keys/${id}`);
  await page.getByRole('button', { name: 'Disable…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disable this key?' });
  await expect(confirm.getByText('Every call with this key gets 401')).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByLabel(/Reason/).fill('runner decommissioned');
  await confirm.getByRole('button', { name: 'Disable key' }).click();
  await page.getByText('The key is disabled: calls with it now get 401.').waitFor();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('runner decommissioned')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Disable…' })).toHaveCount(0);

  const answer = await queryCompound(key, 'ethanol');
  assert.equal(answer.status, 401, answer.text);
  await page.goto(`${server.baseUrl}/keys`);
  await expect(page.getByRole('row', { name: /ci runner/ }).getByText('disabled')).toBeVisible();
  await page.context().close();
});

test("a developer cannot see another developer's key: 404 for its page and its usage, absent from their list", async () => {
  const page = await freshPage();
  await signUp(page, server.baseUrl, 'dan@example.test');
  const dans = cliKey('dan@example.test', '--name', 'dan private');
  await page.context().clearCookies();
  await signUp(page, server.baseUrl, 'eve@example.test');

  const response = await page.goto(`${server.baseUrl}/keys/${dans.id}`);
  assert.equal(response?.status(), 404);
  await expect(page.getByText('dan private')).toHaveCount(0);
  assert.equal((await page.request.get(`${server.baseUrl}/api/portal/keys/${dans.id}/usage`)).status(), 404);
  assert.equal(
    (await page.goto(`${server.baseUrl}/keys/no-such-key`))?.status(),
    404,
    'the same answer as for an id that does not exist',
  );

  await page.goto(`${server.baseUrl}/keys`);
  await page.getByText('You have no API keys yet').waitFor();
  await expect(page.getByText('dan private')).toHaveCount(0);
  await expect(page.getByText(`cf_${dans.key.slice(3, 7)}`)).toHaveCount(0);
  await page.context().close();
});

test('a developer reports a key as leaked, then reissues it: the new secret is shown once and works, the old one gets 401', async () => {
  const page = await freshPage();
  await signUp(page, server.baseUrl, 'fay@example.test');
  const old = cliKey('fay@example.test', '--name', 'pushed by mistake');

  await page.goto(`${server.baseUrl}/keys/${old.id}`);
  await page.getByRole('button', { name: 'Report as leaked…' }).click();
  const report = page.getByRole('dialog', { name: 'Report this key as leaked?' });
  await expect(report.getByText('disabled at once')).toBeVisible();
  await report.getByRole('button', { name: 'Disable and report leak' }).click();
  await page.getByText('the key is disabled and the leak is on record').waitFor();
  await expect(page.getByText('reported leaked by the owner')).toBeVisible();
  assert.equal((await queryCompound(old.key, 'ethanol')).status, 401);

  await page.getByRole('button', { name: 'Reissue…' }).click();
  await page.getByRole('dialog', { name: 'Reissue this key?' }).getByRole('button', { name: 'Reissue key' }).click();
  const reveal = page.getByRole('dialog', { name: 'Key reissued: your new secret' });
  const secret = await reveal.getByLabel(/Your new API key/).inputValue();
  assert.notEqual(secret, old.key);
  await reveal.getByRole('button', { name: 'I have stored it: open the new key' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/keys/') && !url.pathname.endsWith(old.id));
  await expect(page.getByRole('heading', { name: 'pushed by mistake' })).toBeVisible();
  await expect
    .poll(async () => (await page.content()).includes(secret), { message: 'the secret is gone from the page' })
    .toBe(false);

  assert.equal((await queryCompound(secret, 'ethanol')).status, 200);
  assert.equal((await queryCompound(old.key, 'ethanol')).status, 401);
  await page.goto(`${server.baseUrl}/keys`);
  const row = page.getByRole('row', { name: /pushed by mistake/ });
  await expect(row.locator('td[data-label="Status"]')).toHaveText('active');
  await row.getByText('Replaces 1 older key').click();
  await expect(row.locator('.older-keys li')).toHaveText(/^cf_\S+ replaced\s*$/);
  await page.context().close();
});

for (const [label, viewport] of [
  ['1280', DESKTOP],
  ['390', PHONE],
] as const) {
  test(`at ${label} px, a developer reissues a key with "Old secret stops: in 1 hour": both secrets work through /mcp and the old key shows when it stops`, async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const email = `roll-${label}@example.test`;
    await signUp(page, server.baseUrl, email);
    // rps 1000: both secrets are called back to back and share one allowance, its per-second limit too.
    const old = cliKey(email, '--name', 'deployed agent', '--rps', '1000');

    await page.goto(`${server.baseUrl}/keys/${old.id}`);
    await page.getByRole('button', { name: 'Reissue…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reissue this key?' });
    const choice = dialog.getByRole('group', { name: 'Old secret stops' });
    await expect(choice.getByRole('radio', { name: 'now (default)' })).toBeChecked();
    for (const name of ['in 1 hour', 'in 24 hours', 'in 7 days'])
      await expect(choice.getByRole('radio', { name })).not.toBeChecked();
    await choice.getByRole('radio', { name: 'in 1 hour' }).check();
    assert.deepEqual(await seriousAxeViolations(page, 'dialog[open]'), [], 'axe on the reissue dialog');
    const started = Date.now();
    await dialog.getByRole('button', { name: 'Reissue key' }).click();

    const reveal = page.getByRole('dialog', { name: 'Key reissued: your new secret' });
    const secret = await reveal.getByLabel(/Your new API key/).inputValue();
    assert.notEqual(secret, old.key);
    await reveal.getByRole('button', { name: 'I have stored it: open the new key' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/keys/') && !url.pathname.endsWith(old.id));

    // The server's own account of when the old secret stops: one hour after the reissue.
    const oldReport = server.cliJson('key', 'show', old.id);
    const stopsAt = Date.parse(oldReport.worksUntil ?? '');
    assert.ok(
      stopsAt >= started + 3_600_000 && stopsAt <= Date.now() + 3_600_000,
      `stops in 1 hour: ${oldReport.worksUntil}`,
    );
    const stopsAtText = new Date(stopsAt).toISOString().slice(0, 16).replace('T', ' ');

    // The new key's page names its predecessor and when it stops.
    const replaces = page.locator('dd', { hasText: 'whose secret still works until' });
    await expect(replaces).toContainText(stopsAtText);
    await expect(replaces).toContainText(`cf_${old.key.slice(3, 7)}`);

    // Both secrets answer tools/call.
    for (const [what, key] of [
      ['new secret', secret],
      ['old secret during its grace period', old.key],
    ]) {
      const answer = await queryCompound(key, 'ethanol');
      assert.equal(answer.status, 200, `${what}: ${answer.text}`);
      assert.equal(toolResult(answer).isError, false, what);
    }

    // The keys list: the old key, folded under the new one in view (it still works), says until when.
    await page.goto(`${server.baseUrl}/keys`);
    const rows = page.getByRole('row', { name: /deployed agent/ });
    await expect(rows).toHaveCount(1);
    const oldKey = rows.locator('.older-keys li').filter({ hasText: `cf_${old.key.slice(3, 7)}` });
    await expect(oldKey.getByText('replaced')).toBeVisible();
    await expect(oldKey.getByText(/works until/)).toContainText(stopsAtText);
    await expect(oldKey.locator('time').first()).toHaveAttribute('datetime', new Date(stopsAt).toISOString());
    if (label === '390') await assertFitsPhoneWidth(page);
    assert.deepEqual(await seriousAxeViolations(page, 'main'), [], 'axe on the keys list');

    // The old key's own page says it too, and still offers Disable (a leak must be able to stop it now).
    await page.goto(`${server.baseUrl}/keys/${old.id}`);
    await expect(page.locator('dd', { hasText: 'by a reissued key' })).toContainText(`works until ${stopsAtText}`);
    await expect(page.getByRole('button', { name: 'Disable…' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reissue…' })).toHaveCount(0);
    await context.close();
  });
}
