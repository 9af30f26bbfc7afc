/**
 * The first admin's one-time password, printed at first start, must be replaced before the account does
 * anything else: signing in with it lands on "Choose a new password", every other page sends the admin
 * there, the usage and call-log routes refuse, and an action (sent from a page loaded before) does not
 * run. Once a new password is chosen, the portal opens and the one-time password no longer signs in.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDb } from '../lib/db/client.ts';
import { seriousAxeViolations } from '../test/support/axe.ts';
import { assertFitsPhoneWidth, DESKTOP, PHONE, signIn } from '../test/support/browser.ts';
import { withServerAndBrowser } from '../test/support/server-and-browser.ts';

const NEW_PASSWORD = 'a passphrase only the admin knows';
const FIRST =
  /^Choose a new password first: this account still has the one-time password printed when ChemFlow first started/;

test('signing in with the one-time admin password leads to choosing a new one; nothing else works until then', async (t) => {
  const { server, browser } = await withServerAndBrowser(t);
  const oneTime = server.oneTimeAdminPassword!;
  const demo = server.cliJson('key', 'show', server.demoKey);
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  const base = server.baseUrl;

  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(server.adminEmail);
  await page.getByLabel('Password').fill(oneTime);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/account/password`);
  await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    assert.deepEqual(await seriousAxeViolations(page), [], `the new-password page at ${viewport.width} px`);
  }
  await assertFitsPhoneWidth(page);
  await page.setViewportSize(DESKTOP);

  // Every page, the developer's and the staff's alike, and the one asked for at sign-in.
  for (const path of [
    '/keys',
    `/keys/${demo.id}`,
    '/usage',
    '/account',
    '/support',
    '/support/audit',
    '/admin/users',
  ]) {
    await page.goto(`${base}${path}`);
    assert.equal(page.url(), `${base}/account/password`, path);
  }
  const usage = await page.request.get(`${base}/api/portal/keys/${demo.id}/usage`);
  assert.equal(usage.status(), 403);
  assert.match((await usage.json()).error, FIRST);
  const csv = await page.request.get(`${base}/api/portal/keys/${demo.id}/calls.csv?range=7`);
  assert.equal(csv.status(), 403);
  assert.match(await csv.text(), FIRST);

  // A wrong current password is refused at its field; the one-time one, with a new one twice, goes through.
  await page.getByLabel('Current password').fill('not the one-time password');
  await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
  await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('alert').filter({ hasText: 'The current password is wrong' }).waitFor();
  await page.getByLabel('Current password').fill(oneTime);
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.waitForURL(`${base}/account?changed=1`);
  await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
  await page.goto(`${base}/keys`);
  assert.equal(page.url(), `${base}/keys`, 'the portal is open');
  assert.equal((await page.request.get(`${base}/api/portal/keys/${demo.id}/usage`)).status(), 200);
  await page.goto(`${base}/account/password`);
  assert.equal(page.url(), `${base}/account`, 'nothing left to replace: the ordinary account page');

  const other = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await other.goto(`${base}/signin`);
  await other.getByLabel('Email').fill(server.adminEmail);
  await other.getByLabel('Password').fill(oneTime);
  await other.getByRole('button', { name: 'Sign in' }).click();
  await other.getByRole('alert').filter({ hasText: 'Wrong email or password.' }).waitFor();
  await signIn(other, base, server.adminEmail, NEW_PASSWORD, '/support');
});

test('an action sent while the account must replace its password does nothing and says why', async (t) => {
  const { server, browser } = await withServerAndBrowser(t);
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signIn(page, server.baseUrl, server.adminEmail, server.adminPassword!, '/keys');
  const before = server.cliJson('key', 'show', server.demoKey);

  // The account is marked again while the page is open (as if its password had been printed anew).
  const db = createDb(server.env.DATABASE_URL!);
  try {
    await db.user.update({ where: { email: server.adminEmail }, data: { mustChangePassword: true } });
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Name/).fill('made while marked');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: FIRST })
      .filter({ hasText: '(/account/password); the key was not created.' })
      .waitFor();
    const admin = await db.user.findUniqueOrThrow({ where: { email: server.adminEmail } });
    assert.equal(await db.apiKey.count({ where: { ownerId: admin.id } }), 1, 'only the demo key');
  } finally {
    await db.$disconnect();
  }
  assert.equal(server.cliJson('key', 'show', server.demoKey).status, before.status);
});
