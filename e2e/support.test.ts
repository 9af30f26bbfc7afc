/**
 * Browser stories of the staff side, against the production server on a fresh database: a developer
 * asks for Pro and an admin approves it; a support agent stops a leaked key and finds it in the audit
 * trail; a developer cannot reach staff pages (404) until an admin grants a role. The stories share one
 * server and one browser: each uses accounts and keys of its own and closes its browser contexts.
 */
import assert from 'node:assert/strict';
import { after, before, type TestContext, test } from 'node:test';
import { type Browser, expect, type Page } from '@playwright/test';
import { seriousAxeViolations } from '../test/support/axe.ts';
import { assertFitsPhoneWidth, DESKTOP, PHONE, saveScreenshot, signIn, signUp } from '../test/support/browser.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import type { TestServer } from '../test/support/test-server.ts';

const PASSWORD = 'correct horse battery staple';
/** The support agent of the stories. */
const SUPPORT_EMAIL = 'grace@example.test';

let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;
before(async () => {
  ({ server, browser, close } = await startServerAndBrowser());
  server.cliOk('user', 'create', '--email', SUPPORT_EMAIL, '--password', PASSWORD, '--role', 'support');
});
after(() => close?.());

/** A page in a browser context of its own (its own cookies), closed when the story ends. */
async function newPage(t: TestContext, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  t.after(() => context.close());
  return context.newPage();
}

/** Both widths of a main page: screenshots, and nothing wider than a phone. */
async function capture(page: Page, name: string, widths: ('1280' | '390')[] = ['1280']) {
  for (const width of widths) {
    await page.setViewportSize(width === '1280' ? DESKTOP : PHONE);
    await saveScreenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize(DESKTOP);
  await assertFitsPhoneWidth(page);
}

test('a developer requests Pro; an admin approves it in the queue; the key is Pro and the developer sees “approved”', async (t) => {
  const email = 'lab-agent@example.test';
  const dev = await newPage(t);
  await signUp(dev, server.baseUrl, email, PASSWORD);
  const key = server.cliJson('key', 'create', '--owner', email, '--name', 'lab agent');

  await dev.goto(`${server.baseUrl}/upgrade?key=${key.id}`);
  await dev.getByRole('heading', { name: 'Pro', exact: true }).waitFor();
  await dev.getByText('100,000', { exact: true }).waitFor();
  assert.equal(await dev.getByLabel('Key to upgrade').inputValue(), key.id, 'preselected from ?key=');
  await dev.getByLabel(/^Use case/).fill('An agent that screens solvents by vapour pressure for a pilot plant.');
  await dev.getByLabel(/^Expected calls per day/).fill('25000');
  assert.equal(await dev.getByLabel(/^Contact/).inputValue(), email, 'contact defaults to the account email');
  await dev.getByRole('button', { name: 'Request Pro' }).click();
  await dev.getByRole('status').filter({ hasText: 'Request sent' }).waitFor();
  const myRequests = dev.getByRole('table');
  await myRequests.getByText('pending', { exact: true }).waitFor();
  await myRequests.getByText('25,000 calls/day').waitFor();
  await capture(dev, 'upgrade', ['1280', '390']);

  const admin = await newPage(t);
  await signIn(admin, server.baseUrl, server.adminEmail, server.adminPassword!, '/support/upgrades');
  const request = admin.getByRole('article', { name: `Request from ${email} for ${key.start}` });
  await request.getByText('25,000 calls/day').waitFor();
  await capture(admin, 'upgrades-queue');
  await request.getByLabel(/^Note to the developer/).fill('Approved for the pilot; write to us if you need more.');
  await request.getByRole('button', { name: 'Approve: make the key Pro' }).click();
  await admin.getByText('No pending requests.').waitFor();
  await admin.getByRole('table').getByText('approved', { exact: true }).waitFor();

  await dev.reload();
  await myRequests.getByText('approved', { exact: true }).waitFor();
  await myRequests.getByText('Approved for the pilot; write to us if you need more.').waitFor();
  assert.equal(server.cliJson('key', 'show', key.id).tier, 'pro');
  // /mcp applies Pro from the next call: three calls at once pass (the free tier's 1 call/s would refuse two).
  const calls = await Promise.all(
    [1, 2, 3].map(() =>
      postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'ethanol' }), bearer(key.key)),
    ),
  );
  assert.deepEqual(
    calls.map((c) => c.status),
    [200, 200, 200],
  );
  // The key is no longer a free key, so the form has nothing left to offer.
  await dev.getByText(/You have no active free key to upgrade/).waitFor();
});

test('a support agent pastes a leaked secret, opens the key, disables it with a reason, and finds it in the audit trail', async (t) => {
  server.cliOk('user', 'create', '--email', 'owner@example.test', '--password', PASSWORD);
  const leaked = server.cliJson('key', 'create', '--owner', 'owner@example.test', '--name', 'build server');
  const call = () =>
    postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'ethanol' }), bearer(leaked.key));
  assert.equal((await call()).status, 200, 'the key works before');

  const page = await newPage(t);
  await signIn(page, server.baseUrl, SUPPORT_EMAIL, PASSWORD, '/support');
  await page.getByLabel(/^Find a key/).fill(leaked.key);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('heading', { name: 'The key of the pasted secret' }).waitFor();
  assert.ok(!page.url().includes(leaked.key), 'the secret is not in the URL');
  assert.ok(!(await page.content()).includes(leaked.key), 'the secret is not echoed into the page');
  assert.equal(await page.getByLabel(/^Find a key/).inputValue(), '');
  await capture(page, 'support-search');

  await page.getByRole('link', { name: `Open key ${leaked.start} (build server)` }).click();
  await page.waitForURL(`${server.baseUrl}/support/keys/${leaked.id}`);
  await page.getByText('owner@example.test').first().waitFor();
  await capture(page, 'support-key', ['1280', '390']);

  const reason = 'Leaked in a public CI log (ticket SUP-1234)';
  await page.getByRole('button', { name: 'Disable…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disable this key?' });
  await dialog.getByLabel(/^Reason/).fill(reason);
  await dialog.getByRole('button', { name: 'Disable key' }).click();
  await page.getByRole('status').filter({ hasText: 'Key disabled' }).waitFor();
  await page.getByRole('button', { name: 'Re-enable…' }).waitFor();

  await page.getByRole('navigation', { name: 'Support console' }).getByRole('link', { name: 'Audit trail' }).click();
  await page.waitForURL(`${server.baseUrl}/support/audit`);
  await page.getByLabel(/^Key/).fill(leaked.start);
  await page.getByLabel(/^Actor/).fill('grace@');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/\/support\/audit\?key=/);
  const row = page.getByRole('row').filter({ hasText: 'key.disable' });
  await row.getByRole('cell', { name: reason, exact: true }).waitFor();
  await row.getByText('support:grace@example.test').waitFor();
  assert.equal(
    await page.getByRole('row').filter({ hasText: 'key.issue' }).count(),
    0,
    'the actor filter leaves out the CLI’s key.issue',
  );
  await capture(page, 'audit', ['1280', '390']);

  const refused = await call();
  assert.equal(refused.status, 401);
});

test('a developer gets 404 for /support, /support/audit and /admin/users until an admin grants the support role', async (t) => {
  const email = 'curious@example.test';
  const dev = await newPage(t);
  await dev.goto(`${server.baseUrl}/support/audit`);
  await dev.waitForURL(`${server.baseUrl}/signin?next=%2Fsupport%2Faudit`);
  await signUp(dev, server.baseUrl, email, PASSWORD);
  for (const path of ['/support', '/support/audit', '/admin/users']) {
    const response = await dev.goto(`${server.baseUrl}${path}`);
    assert.equal(response?.status(), 404, `${path} answers 404 to a developer`);
  }
  assert.equal(
    await dev.getByRole('link', { name: 'Support', exact: true }).count(),
    0,
    'no staff links in the header',
  );
  const someKey = server.cliJson('key', 'create', '--owner', server.adminEmail);
  const usage = await dev.request.get(`${server.baseUrl}/api/support/keys/${someKey.id}/usage`);
  assert.equal(usage.status(), 404, "the support console's usage endpoint answers 404 to a developer");

  const admin = await newPage(t);
  await signIn(admin, server.baseUrl, server.adminEmail, server.adminPassword!, '/admin/users');
  await admin.getByLabel(/^Email/).fill('curious');
  await admin.getByRole('button', { name: 'Filter' }).click();
  await admin.waitForURL(/email=curious/);
  const row = admin.getByRole('row').filter({ hasText: email });
  await row.getByRole('button', { name: 'Change role…' }).click();
  const dialog = admin.getByRole('dialog', { name: `Change the role of ${email}` });
  await dialog.getByLabel('New role').selectOption('support');
  await dialog.getByRole('button', { name: 'Change role' }).click();
  await admin
    .getByRole('status')
    .filter({ hasText: `${email} is now support.` })
    .waitFor();
  await admin.goto(`${server.baseUrl}/admin/users`);
  await capture(admin, 'admin-users');

  assert.equal((await dev.goto(`${server.baseUrl}/support`))?.status(), 200, 'support may open the console now');
  assert.equal((await dev.goto(`${server.baseUrl}/admin/users`))?.status(), 404, 'but not the admin pages');
});

test('support re-enables a key, changes its quota, and reissues it for the owner (secret shown once, then the new key)', async (t) => {
  const key = server.cliJson('key', 'create', '--owner', server.adminEmail, '--name', 'team key');
  const page = await newPage(t);
  await signIn(page, server.baseUrl, SUPPORT_EMAIL, PASSWORD, `/support/keys/${key.id}`);

  const switchKey = async (trigger: string, submit: string, outcome: string) => {
    await page.getByRole('button', { name: trigger }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Reason/).fill(`${submit}: owner’s request`);
    await dialog.getByRole('button', { name: submit }).click();
    await page.getByRole('status').filter({ hasText: outcome }).waitFor();
  };
  await switchKey('Disable…', 'Disable key', 'Key disabled');
  await switchKey('Re-enable…', 'Re-enable key', 'Key re-enabled');
  assert.equal(server.cliJson('key', 'show', key.id).status, 'active');

  await page.getByRole('spinbutton', { name: /^Daily quota/ }).fill('77');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved: daily quota' }).waitFor();
  await page.getByRole('region', { name: 'Key facts' }).getByText('77 calls/day').waitFor();
  assert.equal(server.cliJson('key', 'show', key.id).dailyQuota, 77);

  await page.getByRole('button', { name: 'Reissue…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reissue key' }).click();
  const secret = (await page.getByLabel('New secret').textContent())!;
  assert.match(secret, /^cf_[0-9A-Za-z]{38}$/);
  await page.getByRole('button', { name: 'Done, open the new key' }).click();
  await page.waitForFunction(
    (old) => /^\/support\/keys\//.test(location.pathname) && !location.pathname.endsWith(old),
    key.id,
  );
  await page.getByText('Replaces', { exact: true }).waitFor();
  assert.ok(!(await page.content()).includes(secret), 'the secret is gone once the dialog is closed');
  const fresh = server.cliJson('key', 'show', secret);
  assert.deepEqual([fresh.status, fresh.dailyQuota, fresh.owner], ['active', 77, server.adminEmail]);
  assert.equal(server.cliJson('key', 'show', key.id).status, 'replaced');
});

test('support reissues a key with "Old secret stops: in 24 hours" at 1280 and 390 px: both secrets work, the old key says until when, the audit trail shows the choice; disabling the old key stops it at once', async (t) => {
  const call = (secret: string) =>
    postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'water' }), bearer(secret));
  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    // rps 1000: both secrets are called back to back and share one allowance, its per-second limit too.
    const key = server.cliJson(
      'key',
      'create',
      '--owner',
      server.adminEmail,
      '--name',
      `fleet ${label}`,
      '--rps',
      '1000',
    );
    const page = await newPage(t, viewport);
    await signIn(page, server.baseUrl, SUPPORT_EMAIL, PASSWORD, `/support/keys/${key.id}`);

    await page.getByRole('button', { name: 'Reissue…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reissue this key?' });
    const choice = dialog.getByRole('group', { name: 'Old secret stops' });
    await expect(choice.getByRole('radio', { name: 'now (default)' })).toBeChecked();
    await choice.getByRole('radio', { name: 'in 24 hours' }).check();
    assert.deepEqual(await seriousAxeViolations(page, 'dialog[open]'), [], `axe on the reissue dialog at ${label} px`);
    const started = Date.now();
    await dialog.getByRole('button', { name: 'Reissue key' }).click();
    const secret = (await page.getByLabel('New secret').textContent())!;
    assert.match(secret, /^cf_[0-9A-Za-z]{38}$/);
    const stopsAt = Date.parse(server.cliJson('key', 'show', key.id).worksUntil ?? '');
    assert.ok(stopsAt >= started + 86_400_000 && stopsAt <= Date.now() + 86_400_000, 'stops 24 hours on');
    const stopsAtText = new Date(stopsAt).toISOString().slice(0, 16).replace('T', ' ');
    await expect(page.getByRole('status').filter({ hasText: 'The old secret works until' })).toContainText(stopsAtText);
    assert.deepEqual(
      await seriousAxeViolations(page, 'dialog[open]'),
      [],
      `axe on the new-secret dialog at ${label} px`,
    );
    await page.getByRole('button', { name: 'Done, open the new key' }).click();
    await page.waitForFunction(
      (old) => /^\/support\/keys\//.test(location.pathname) && !location.pathname.endsWith(old),
      key.id,
    );
    await expect(page.locator('dd', { hasText: 'whose secret still works until' })).toContainText(stopsAtText);

    for (const [what, s] of [
      ['new secret', secret],
      ['old secret in its grace period', key.key],
    ]) {
      assert.equal((await call(s)).status, 200, what);
    }

    await page.goto(`${server.baseUrl}/support/keys/${key.id}`);
    const facts = page.getByRole('region', { name: 'Key facts' });
    await expect(facts.locator('dd', { hasText: 'works until' })).toContainText(`replaced works until ${stopsAtText}`);
    const reissueEvent = page.getByRole('row').filter({ hasText: 'key.reissue' });
    await expect(reissueEvent).toContainText('old secret kept working for: 24 hours');
    await expect(reissueEvent).toContainText(`disabled at: none → ${stopsAtText} UTC`);
    await expect(page.getByText('Already reissued; reissue its successor instead.')).toBeVisible();
    await assertFitsPhoneWidth(page);

    // A leak during the grace period: Disable… stops the old secret from the next call.
    await page.getByRole('button', { name: 'Disable…' }).click();
    const disable = page.getByRole('dialog', { name: 'Disable this key?' });
    await disable.getByLabel(/^Reason/).fill('old secret found in a public CI log');
    await disable.getByRole('button', { name: 'Disable key' }).click();
    await page.getByRole('status').filter({ hasText: 'Key disabled' }).waitFor();
    assert.equal((await call(key.key)).status, 401, 'the old secret is refused at once');
    assert.equal((await call(secret)).status, 200, 'the new secret works on');
    await page.context().close();
  }
});

test('support pastes a log with leaked secrets on Leaked keys: the matching keys are disabled and counted', async (t) => {
  const first = server.cliJson('key', 'create', '--owner', server.adminEmail, '--name', 'ci');
  const second = server.cliJson('key', 'create', '--owner', server.adminEmail, '--name', 'notebook');
  server.cliOk('key', 'disable', second.id, '--reason', 'rotated last week');
  const page = await newPage(t);
  await signIn(page, server.baseUrl, SUPPORT_EMAIL, PASSWORD, '/support/leaks');

  await page
    .getByLabel(/^Text with leaked secrets/)
    .fill(`2026-11-26 build log\nexport CHEMFLOW_KEY=${first.key}\nold: ${second.key}\nagain ${first.key}`);
  await page.getByLabel(/^Where were they found/).fill('https://paste.example/abc');
  await page.getByRole('button', { name: 'Disable leaked keys' }).click();
  await page
    .getByText('Tick the confirmation box', { exact: false })
    .or(page.locator('input[name="confirm"]:invalid'))
    .first()
    .waitFor();
  await page.getByLabel(/Disable every active key whose secret is in this text/).check();
  await page.getByRole('button', { name: 'Disable leaked keys' }).click();
  const outcome = page.getByRole('region', { name: 'Outcome' });
  await outcome.waitFor();
  const stat = (label: string) => outcome.locator('.stat').filter({ hasText: label }).locator('.value').textContent();
  assert.deepEqual(
    [
      await stat('Secrets found'),
      await stat('Matched keys'),
      await stat('Disabled now'),
      await stat('Already disabled'),
    ],
    ['2', '2', '1', '1'],
  );
  await outcome.getByRole('link', { name: first.start }).waitFor();
  assert.ok(!(await page.content()).includes(first.key), 'the secrets are not echoed back');
  await capture(page, 'support-leaks');
  const shown = server.cliJson('key', 'show', first.id);
  assert.deepEqual([shown.status, shown.disabledReason], ['leaked', 'leaked: https://paste.example/abc']);
});
