/**
 * A key's status as its owner, a support agent and the CLI read it, at 1280 and 390 px with axe on every
 * page state: the same word for every status (lib/keys/status.ts); replaced keys folded under the key that
 * replaced them; Reissue, not Re-enable, as support's first choice for a leaked key; and a quota set by
 * support explained to the owner.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from '@playwright/test';
import { createDb, type Db } from '../lib/db/client.ts';
import { KEY_STATUSES, type KeyStatus } from '../lib/keys/status.ts';
import { assertNoSeriousAxe, seriousAxeViolations } from '../test/support/axe.ts';
import { assertFitsPhoneWidth, DESKTOP, PHONE, signIn } from '../test/support/browser.ts';
import { errorBody } from '../test/support/mcp-answers.ts';
import { bearer, postMcp, rpc } from '../test/support/mcp-client.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import type { CliIssuedKey, TestServer } from '../test/support/test-server.ts';

let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;
let db: Db;

before(async () => {
  ({ server, browser, close } = await startServerAndBrowser());
  db = createDb(server.env.DATABASE_URL!);
});
after(async () => {
  await db?.$disconnect();
  await close?.();
});

const PASSWORD = 'correct horse battery staple';
const WIDTHS = { '1280': DESKTOP, '390': PHONE } as const;
type Width = keyof typeof WIDTHS;

const displayOf = (key: CliIssuedKey) => `cf_${key.key.slice(3, 7)}…${key.key.slice(-4)}`;

async function personAt(width: Width, email: string, role: 'developer' | 'support', next: string): Promise<Page> {
  server.cliOk('user', 'create', '--email', email, '--password', PASSWORD, '--role', role);
  const page = await (await browser.newContext({ viewport: WIDTHS[width] })).newPage();
  await signIn(page, server.baseUrl, email, PASSWORD, next);
  return page;
}

/** The status word the owner's keys list shows for a key: in its row, or in the row of the key that replaced it. */
const listedStatus = (page: Page, display: string) =>
  page.evaluate((wanted) => {
    const code = [...document.querySelectorAll('.keys-table code')].find((c) => c.textContent === wanted);
    const holder = code?.closest('li, tr');
    const badge =
      holder?.tagName === 'LI'
        ? holder.querySelector(':scope > .badge')
        : holder?.querySelector(':scope > td[data-label="Status"] .badge');
    return badge?.textContent ?? `no badge for ${wanted}`;
  }, display);

for (const width of ['1280', '390'] as const) {
  test(`at ${width} px, every key status reads the same to the owner (list and key page), to support (search and key page) and in the CLI`, async () => {
    const owner = `owner-${width}@example.test`;
    const ownerPage = await personAt(width, owner, 'developer', '/keys');
    const key = (name: string, ...options: string[]) =>
      server.cliJson('key', 'create', '--owner', owner, '--name', name, ...options);

    const keys: Record<KeyStatus | 'replaced in its grace period', CliIssuedKey> = {
      expired: key('soon expired', '--expires-in', '1d'),
      active: key('in use'),
      disabled: key('switched off'),
      leaked: key('pushed to a public repo'),
      replaced: key('rotated'),
      'replaced in its grace period': key('rotating'),
    };
    server.cliOk('key', 'disable', keys.disabled.id, '--reason', 'owner asked (ticket SUP-12)');
    const report = await ownerPage.request.post(`${server.baseUrl}/api/keys/report-leak`, {
      data: { secrets: [keys.leaked.key], source: 'https://example.com/a-public-repo' },
    });
    assert.equal(report.status(), 202);
    server.cliJson('key', 'reissue', keys.replaced.id);
    server.cliJson('key', 'reissue', keys['replaced in its grace period'].id, '--grace', '1h');
    // The CLI takes no expiry in the past: the day passes in the database instead of being waited for.
    await db.apiKey.update({ where: { id: keys.expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });

    const supportPage = await personAt(width, `support-${width}@example.test`, 'support', '/support');
    await ownerPage.goto(`${server.baseUrl}/keys`);
    await assertNoSeriousAxe(ownerPage, 'owner: keys list with every status');
    if (width === '390') await assertFitsPhoneWidth(ownerPage);
    const seen = new Set<KeyStatus>();
    for (const [state, issued] of Object.entries(keys)) {
      const display = displayOf(issued);
      const cli = server.cliJson('key', 'show', issued.id).status;
      const cliLine = /Status: +(\S+)/.exec(server.cliOk('key', 'show', issued.id))?.[1];
      const ownerList = await listedStatus(ownerPage, display);

      await ownerPage.goto(`${server.baseUrl}/keys/${issued.id}`);
      const ownerKeyPage = await ownerPage.locator('.key-head .badge').innerText();
      await assertNoSeriousAxe(ownerPage, `owner: the ${state} key's page`);

      await supportPage.goto(`${server.baseUrl}/support?q=${encodeURIComponent(display)}`);
      const found = supportPage
        .getByRole('row')
        .filter({ has: supportPage.getByRole('link', { name: `Open key ${display}` }) });
      const supportSearch = await found.locator('.badge').innerText();
      await assertNoSeriousAxe(supportPage, `support: search finding the ${state} key`);
      await supportPage.goto(`${server.baseUrl}/support/keys/${issued.id}`);
      const supportKeyPage = await supportPage
        .locator('dt', { hasText: /^Status$/ })
        .locator('xpath=following-sibling::dd[1]')
        .locator('.badge')
        .innerText();
      await assertNoSeriousAxe(supportPage, `support: the ${state} key's page`);
      await ownerPage.goto(`${server.baseUrl}/keys`);

      const expected = (state === 'replaced in its grace period' ? 'replaced' : state) as KeyStatus;
      seen.add(expected);
      assert.deepEqual(
        { ownerList, ownerKeyPage, supportSearch, supportKeyPage, cli, cliLine },
        {
          ownerList: expected,
          ownerKeyPage: expected,
          supportSearch: expected,
          supportKeyPage: expected,
          cli: expected,
          cliLine: expected,
        },
        `the ${state} key`,
      );
    }
    assert.deepEqual([...seen].sort(), [...KEY_STATUSES].sort(), 'every status of the vocabulary was seen');

    // The grace period's end is said on both sides too.
    const graceKey = keys['replaced in its grace period'];
    const until = server.cliJson('key', 'show', graceKey.id).worksUntil!;
    const untilText = new Date(until).toISOString().slice(0, 16).replace('T', ' ');
    await ownerPage
      .locator('li', { hasText: displayOf(graceKey) })
      .getByText(`works until ${untilText}`)
      .waitFor();
    await supportPage.goto(`${server.baseUrl}/support?q=${encodeURIComponent(displayOf(graceKey))}`);
    await supportPage.getByRole('row').getByText(`works until ${untilText}`).waitFor();
    await ownerPage.context().close();
    await supportPage.context().close();
  });

  test(`at ${width} px, replaced keys fold under the key that replaced them: one row per key in use, the older keys behind a disclosure that opens from the keyboard`, async () => {
    const owner = `folds-${width}@example.test`;
    const page = await personAt(width, owner, 'developer', '/keys');
    const first = server.cliJson('key', 'create', '--owner', owner, '--name', 'lab agent');
    const second = server.cliJson('key', 'reissue', first.id);
    const third = server.cliJson('key', 'reissue', second.id, '--grace', '24h');
    const ci = server.cliJson('key', 'create', '--owner', owner, '--name', 'ci runner');
    const ciNow = server.cliJson('key', 'reissue', ci.id);
    await page.reload();

    const rows = page.locator('.keys-table tbody > tr');
    await rows.first().waitFor();
    assert.deepEqual(
      await rows.locator('th .key-name > a').allInnerTexts(),
      ['ci runner', 'lab agent'],
      'one row per key in use, no rows for the keys they replaced',
    );
    const lab = rows.filter({ hasText: 'lab agent' });
    assert.equal(await lab.locator('td[data-label="Key"] code').innerText(), displayOf(third));

    // An older key still in its grace period keeps the disclosure open, with until when it works.
    const labOlder = lab.locator('details');
    assert.equal(await labOlder.locator('summary').innerText(), 'Replaces 2 older keys');
    assert.equal(await labOlder.evaluate((d) => (d as HTMLDetailsElement).open), true);
    const inGrace = labOlder.locator('li', { hasText: displayOf(second) });
    assert.match(await inGrace.innerText(), /replaced\s+works until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    assert.match(await labOlder.locator('li', { hasText: displayOf(first) }).innerText(), /replaced$/);
    await assertNoSeriousAxe(page, 'keys list, an open disclosure');

    // Older keys that no longer work stay folded until asked for, from the keyboard.
    const ciRow = rows.filter({ hasText: 'ci runner' });
    assert.equal(await ciRow.locator('td[data-label="Key"] code').innerText(), displayOf(ciNow));
    const summary = ciRow.locator('summary');
    assert.equal(await summary.innerText(), 'Replaces 1 older key');
    const olderLink = ciRow.getByRole('link', { name: `Open the older key ${displayOf(ci)}` });
    assert.equal(await olderLink.isVisible(), false, 'folded');
    await summary.focus();
    await page.keyboard.press('Enter');
    await olderLink.waitFor();
    await assertNoSeriousAxe(page, 'keys list, the folded keys shown');
    if (width === '390') await assertFitsPhoneWidth(page);
    await olderLink.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/keys/${ci.id}`);
    assert.equal(await page.locator('.key-head .badge').innerText(), 'replaced');
    await page.goBack();
    await page.locator('.keys-table summary').first().waitFor();
    const ciSummary = page.locator('.keys-table tbody > tr', { hasText: 'ci runner' }).locator('summary');
    await ciSummary.focus();
    await page.keyboard.press(' ');
    await page.getByRole('link', { name: `Open the older key ${displayOf(ci)}` }).waitFor();
    await page.keyboard.press(' ');
    await page.getByRole('link', { name: `Open the older key ${displayOf(ci)}` }).waitFor({ state: 'hidden' });
    await assertNoSeriousAxe(page, 'keys list, folded again');
    await page.context().close();
  });

  test(`at ${width} px, a key the owner reported leaked: support's first choice is Reissue, Re-enable is secondary and warns; an ordinary disabled key keeps Re-enable first`, async () => {
    const owner = `leaky-${width}@example.test`;
    const ownerPage = await personAt(width, owner, 'developer', '/keys');
    const leaked = server.cliJson('key', 'create', '--owner', owner, '--name', 'leaked agent');
    const paused = server.cliJson('key', 'create', '--owner', owner, '--name', 'paused agent');
    await ownerPage.goto(`${server.baseUrl}/keys/${leaked.id}`);
    await ownerPage.getByRole('button', { name: 'Report as leaked…' }).click();
    await ownerPage.getByRole('button', { name: 'Disable and report leak' }).click();
    await ownerPage.getByText('the key is disabled and the leak is on record').waitFor();
    assert.equal(await ownerPage.locator('.key-head .badge').innerText(), 'leaked');
    await assertNoSeriousAxe(ownerPage, 'owner: key page after reporting the leak');
    server.cliOk('key', 'disable', paused.id, '--reason', 'paused during an audit');

    const page = await personAt(width, `support-leaky-${width}@example.test`, 'support', `/support/keys/${leaked.id}`);
    const reissue = page.getByRole('button', { name: 'Reissue…' });
    const reEnable = page.getByRole('button', { name: 'Re-enable…' });
    const classes = async () => ({
      reissue: await reissue.getAttribute('class'),
      reEnable: await reEnable.getAttribute('class'),
    });
    assert.deepEqual(await classes(), { reissue: '', reEnable: 'secondary' }, 'leaked: Reissue is the primary button');
    await page.getByText('The secret leaked: give the owner a new one.').waitFor();
    await assertNoSeriousAxe(page, 'support: a leaked key');
    await reEnable.click();
    const dialog = page.getByRole('dialog', { name: 'Re-enable this key?' });
    await dialog.getByText('re-enabling it turns the leaked secret back on').waitFor();
    assert.deepEqual(await seriousAxeViolations(page, 'dialog[open]'), [], 'axe: re-enable dialog of a leaked key');
    await page.keyboard.press('Escape');

    await page.goto(`${server.baseUrl}/support/keys/${paused.id}`);
    assert.deepEqual(
      await classes(),
      { reissue: 'secondary', reEnable: '' },
      'an ordinary disabled key: Re-enable stays the primary button',
    );
    assert.equal(await page.getByText('re-enabling it turns the leaked secret back on').count(), 0);
    await assertNoSeriousAxe(page, 'support: a disabled key');
    await ownerPage.context().close();
    await page.context().close();
  });

  test(`at ${width} px, disabling a key whose previous secret is in its grace period: both dialogs say it stops too; support's "leaked" reads leaked`, async () => {
    const owner = `rolling-${width}@example.test`;
    const ownerPage = await personAt(width, owner, 'developer', '/keys');
    const old = server.cliJson('key', 'create', '--owner', owner, '--name', 'rolling agent');
    const next = server.cliJson('key', 'reissue', old.id, '--grace', '24h');
    const stopsToo = new RegExp(
      `The previous secret, ${displayOf(old)}, still in its grace period until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, stops too\\.`,
    );
    await ownerPage.goto(`${server.baseUrl}/keys/${next.id}`);
    for (const [button, title] of [
      ['Disable…', 'Disable this key?'],
      ['Report as leaked…', 'Report this key as leaked?'],
    ]) {
      await ownerPage.getByRole('button', { name: button }).click();
      const dialog = ownerPage.getByRole('dialog', { name: title });
      assert.match(await dialog.innerText(), stopsToo, `owner: ${title}`);
      assert.deepEqual(await seriousAxeViolations(ownerPage, 'dialog[open]'), [], `axe: owner's ${title}`);
      await ownerPage.keyboard.press('Escape');
    }

    const page = await personAt(width, `support-rolling-${width}@example.test`, 'support', `/support/keys/${next.id}`);
    await page.getByRole('button', { name: 'Disable…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable this key?' });
    assert.match(await dialog.innerText(), stopsToo, 'support: Disable this key?');
    await dialog.getByLabel(/^Reason/).fill('Found in a public paste (ticket SUP-77)');
    await dialog.getByLabel(/Its secret leaked/).check();
    assert.deepEqual(await seriousAxeViolations(page, 'dialog[open]'), [], "axe: support's disable dialog");
    await dialog.getByRole('button', { name: 'Disable key' }).click();
    await page
      .getByRole('status')
      .filter({
        hasText: 'Key disabled as leaked. Calls with it now get 401, and so do calls with the previous secret',
      })
      .waitFor();
    for (const secret of [next.key, old.key]) {
      const refused = await postMcp(server.mcpUrl, rpc('ping'), bearer(secret));
      assert.equal(refused.status, 401);
      assert.match(errorBody(refused).message, /^API key reported leaked on /);
      assert.ok(!refused.text.includes('SUP-77'), 'the reason stays with the owner and staff');
    }
    await ownerPage.reload();
    assert.equal(await ownerPage.locator('.key-head .badge').innerText(), 'leaked');
    assert.equal(server.cliJson('key', 'show', next.id).status, 'leaked');
    await ownerPage.context().close();
    await page.context().close();
  });

  test(`at ${width} px, a daily quota and per-second limit set by support are explained on the owner's key page`, async () => {
    const owner = `quota-${width}@example.test`;
    const ownerPage = await personAt(width, owner, 'developer', '/keys');
    const raised = server.cliJson('key', 'create', '--owner', owner, '--name', 'raised');
    const plain = server.cliJson('key', 'create', '--owner', owner, '--name', 'plain');
    const quotaLine = (page: Page, label: string) =>
      page
        .locator('dt', { hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::dd[1]')
        .innerText();

    await ownerPage.goto(`${server.baseUrl}/keys/${raised.id}`);
    assert.equal(await quotaLine(ownerPage, 'Daily quota'), "1,000 calls/day (the free tier's)");
    assert.equal(await quotaLine(ownerPage, 'Per-second limit'), "1 call/s (the free tier's)");

    const staff = await personAt(width, `support-quota-${width}@example.test`, 'support', `/support/keys/${raised.id}`);
    await staff.getByRole('spinbutton', { name: /^Daily quota/ }).fill('2000');
    await staff.getByRole('spinbutton', { name: /^Per-second limit/ }).fill('5');
    await staff.getByRole('textbox', { name: /^Reason/ }).fill('pilot project (ticket SUP-31)');
    await staff.getByRole('button', { name: 'Save settings' }).click();
    await staff
      .getByRole('status')
      .filter({ hasText: /daily quota/i })
      .waitFor();

    await ownerPage.reload();
    assert.equal(
      await quotaLine(ownerPage, 'Daily quota'),
      "2,000 calls/day (set by support; the free tier's default is 1,000)",
    );
    assert.equal(
      await quotaLine(ownerPage, 'Per-second limit'),
      "5 calls/s (set by support; the free tier's default is 1 call/s)",
    );
    await assertNoSeriousAxe(ownerPage, 'owner: a key with limits set by support');
    if (width === '390') await assertFitsPhoneWidth(ownerPage);
    await ownerPage.goto(`${server.baseUrl}/keys/${plain.id}`);
    assert.equal(await quotaLine(ownerPage, 'Daily quota'), "1,000 calls/day (the free tier's)");
    await ownerPage.context().close();
    await staff.context().close();
  });
}
