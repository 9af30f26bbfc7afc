/**
 * Support's Leaked keys page says what happened to each pasted secret (disabled now, already disabled, no
 * such key), by its display form and never the secret, and empties the form once it has answered; the
 * audit trail's day filters are ISO text (YYYY-MM-DD), and a day written otherwise is refused at its field.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expect } from '@playwright/test';
import { displayKey, generateKey, keyDisplayParts } from '../lib/keys/format.ts';
import { seriousAxeViolations } from '../test/support/axe.ts';
import { assertFitsPhoneWidth, DESKTOP, PHONE, signIn } from '../test/support/browser.ts';
import { withServerAndBrowser } from '../test/support/server-and-browser.ts';

const PASSWORD = 'correct horse battery staple';

test('a leak paste lists each secret with its outcome and is cleared; the audit trail takes and checks ISO days', async (t) => {
  const { server, browser } = await withServerAndBrowser(t);
  server.cliOk('user', 'create', '--email', 'owner@example.test', '--password', PASSWORD);
  server.cliOk('user', 'create', '--email', 'grace@example.test', '--password', PASSWORD, '--role', 'support');
  const live = server.cliJson('key', 'create', '--owner', 'owner@example.test', '--name', 'build server');
  const off = server.cliJson('key', 'create', '--owner', 'owner@example.test', '--name', 'old laptop');
  server.cliOk('key', 'disable', off.id, '--reason', 'owner asked');
  const stranger = generateKey();
  const shown = (secret: string) => displayKey(keyDisplayParts(secret));

  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signIn(page, server.baseUrl, 'grace@example.test', PASSWORD, '/support/leaks');
  const text = page.getByLabel(/^Text with leaked secrets/);
  await text.fill(`log line 1 ${live.key}\nlog line 2 ${off.key}\n${stranger} and ${live.key} again`);
  await page.getByLabel(/^Where were they found/).fill('https://paste.example/abc');
  await page.getByLabel(/Disable every active key whose secret is in this text/).check();
  await page.getByRole('button', { name: 'Disable leaked keys' }).click();

  const outcome = page.getByRole('table', { name: 'Each secret found in the text, in the order pasted' });
  await outcome.waitFor();
  const rows = outcome.getByRole('row');
  await expect(rows).toHaveCount(4);
  assert.deepEqual(await rows.nth(1).getByRole('cell').allInnerTexts(), [
    shown(live.key),
    'Disabled now',
    '“build server” of owner@example.test',
  ]);
  assert.deepEqual(await rows.nth(2).getByRole('cell').allInnerTexts(), [
    shown(off.key),
    'Already disabled',
    '“old laptop” of owner@example.test',
  ]);
  assert.deepEqual(await rows.nth(3).getByRole('cell').allInnerTexts(), [
    shown(stranger),
    'No such key',
    'not a key issued here',
  ]);
  await expect(text).toHaveValue('');
  await expect(page.getByLabel(/Disable every active key/)).not.toBeChecked();
  const html = await page.content();
  for (const secret of [live.key, off.key, stranger]) assert.ok(!html.includes(secret), 'no secret left on the page');
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    assert.deepEqual(await seriousAxeViolations(page), [], `the outcome at ${viewport.width} px`);
  }
  await assertFitsPhoneWidth(page);
  await page.setViewportSize(DESKTOP);
  assert.equal(server.cliJson('key', 'show', live.id).status, 'leaked');

  // The audit trail: days as text in ISO order, checked on the server with the field named.
  await page.goto(`${server.baseUrl}/support/audit`);
  const from = page.getByLabel(/^From/);
  assert.equal(await from.getAttribute('type'), null, 'a text field, not a date picker in the browser locale');
  await expect(from).toHaveAttribute('placeholder', 'YYYY-MM-DD');
  const today = new Date().toISOString().slice(0, 10);
  await from.fill(today);
  await page.getByLabel(/^To/).fill(today);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(new RegExp(`from=${today}&to=${today}`));
  const disabled = page.getByRole('row').filter({ hasText: 'key.leak_disable' });
  await disabled.getByRole('cell', { name: 'leaked: https://paste.example/abc', exact: true }).waitFor();
  assert.equal(await disabled.getByText('leaked: https://paste.example/abc').count(), 1, 'the reason once');

  await page.goto(`${server.baseUrl}/support/audit?from=11%2F26%2F2026`);
  await page
    .getByRole('alert')
    .filter({
      hasText:
        'The "from" day "11/26/2026" is not written YYYY-MM-DD: write the UTC day as year-month-day, e.g. 2026-11-26.',
    })
    .waitFor();
  await expect(page.getByLabel(/^From/)).toHaveAttribute('aria-invalid', 'true');
  assert.deepEqual(await seriousAxeViolations(page), [], 'the refused filter');
});
