/**
 * A key support disabled, seen by its owner, in the browser at 1280 and 390 px
 * with axe on every page state: support disables it in the console; the secret is still being tried; the
 * owner finds a notice on /keys saying who, when and why, the key page says it too and counts the refused
 * calls with where they came from (as support's page does); the owner reissues the key themselves: the new
 * secret works with the same tier and quota, the old one stays refused, and the notice is gone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from '@playwright/test';
import { seriousAxeViolations } from '../test/support/axe.ts';
import { assertFitsPhoneWidth, DESKTOP, PHONE, saveScreenshot, signIn } from '../test/support/browser.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
import { withServerAndBrowser } from '../test/support/server-and-browser.ts';

const PASSWORD = 'correct horse battery staple';
const REASON = 'Secret posted in a public forum (ticket SUP-88)';

/** axe on the page as it is, at 1280 px and at 390 px (where it must also fit), and a screenshot of each. */
async function checkBothWidths(page: Page, name: string): Promise<void> {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    assert.deepEqual(await seriousAxeViolations(page), [], `${name} at ${viewport.width} px`);
    await saveScreenshot(page, `${name}-${viewport.width}`);
  }
  await assertFitsPhoneWidth(page);
  await page.setViewportSize(DESKTOP);
}

test('support disables a key; its owner sees who, when and why, sees the refused calls, and reissues it themselves', async (t) => {
  const { server, browser } = await withServerAndBrowser(t);
  server.cliOk('user', 'create', '--email', 'owner@example.test', '--password', PASSWORD);
  server.cliOk('user', 'create', '--email', 'grace@example.test', '--password', PASSWORD, '--role', 'support');
  const key = server.cliJson(
    'key',
    'create',
    '--owner',
    'owner@example.test',
    '--name',
    'forum bot',
    '--daily-quota',
    '2500',
  );
  const call = (secret: string) =>
    postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'ethanol' }), bearer(secret));

  const support = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signIn(support, server.baseUrl, 'grace@example.test', PASSWORD, `/support/keys/${key.id}`);
  await support.getByRole('button', { name: 'Disable…' }).click();
  const dialog = support.getByRole('dialog', { name: 'Disable this key?' });
  await dialog.getByLabel(/^Reason/).fill(REASON);
  await dialog.getByRole('button', { name: 'Disable key' }).click();
  await support.getByRole('status').filter({ hasText: 'Key disabled' }).waitFor();

  // Whoever holds the secret keeps trying it.
  for (let i = 0; i < 3; i++) assert.equal((await call(key.key)).status, 401);

  const owner = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signIn(owner, server.baseUrl, 'owner@example.test', PASSWORD);
  const notice = owner.getByRole('region', { name: 'A key was disabled' });
  await notice.getByText('ChemFlow support disabled').waitFor();
  await notice.getByText(`“${REASON}”`).waitFor();
  await checkBothWidths(owner, 'keys-stopped-notice');

  await notice.getByRole('link', { name: 'forum bot' }).click();
  await owner.waitForURL(`${server.baseUrl}/keys/${key.id}`);
  const keyNotice = owner.getByRole('note', { name: 'This key was disabled' });
  await keyNotice.getByText('ChemFlow support disabled this key').waitFor();
  await keyNotice.getByText(`“${REASON}”`).waitFor();
  // Refusals are written about once a second, and the panels refresh every 5 s.
  const refused = owner.getByRole('region', { name: 'Refused calls' });
  await refused.getByText('3 calls refused since').waitFor({ timeout: 20_000 });
  await refused.getByText(/the last .* from 127\.0\.0\.1/).waitFor();
  assert.equal(await refused.getByRole('row').filter({ hasText: 'key disabled' }).count(), 3);
  await checkBothWidths(owner, 'key-refused-calls');

  // Support sees the same count on the key.
  await support.reload();
  await support.getByRole('region', { name: 'Refused calls' }).getByText('3 calls refused since').waitFor();
  await checkBothWidths(support, 'support-key-refused-calls');

  await owner.getByRole('button', { name: 'Reissue…' }).click();
  const reissue = owner.getByRole('dialog', { name: 'Reissue this key?' });
  await reissue.getByText('stays off').waitFor();
  assert.equal(await reissue.getByRole('radio').count(), 0, 'no grace period for a secret that is already off');
  for (const viewport of [PHONE, DESKTOP]) {
    await owner.setViewportSize(viewport);
    assert.deepEqual(await seriousAxeViolations(owner, 'dialog[open]'), [], `reissue dialog at ${viewport.width} px`);
  }
  await reissue.getByRole('button', { name: 'Reissue key' }).click();
  const secretDialog = owner.getByRole('dialog', { name: 'Key reissued: your new secret' });
  const secret = await secretDialog.getByLabel(/Your new API key/).inputValue();
  assert.match(secret, /^cf_/);
  await secretDialog.getByRole('button', { name: 'I have stored it: open the new key' }).click();
  await owner.waitForURL((url) => url.pathname.startsWith('/keys/') && !url.pathname.endsWith(key.id));

  assert.equal((await call(secret)).status, 200, 'the new secret works');
  assert.equal((await call(key.key)).status, 401, 'the old secret stays off');
  const successor = server.cliJson('key', 'show', secret);
  assert.deepEqual([successor.status, successor.dailyQuota, successor.tier], ['active', 2500, 'free']);
  await owner.goto(`${server.baseUrl}/keys`);
  await owner.getByRole('heading', { name: 'Your API keys' }).waitFor();
  assert.equal(await owner.getByRole('region', { name: 'A key was disabled' }).count(), 0, 'the notice is gone');
});
