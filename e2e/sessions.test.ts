/**
 * Ending sessions in the browser: someone copies the session cookie out of a signed-in Chromium (as
 * malware or a shared computer would), then the owner signs out, or changes the password, in that
 * browser. The copy, used in another browser, lands on the sign-in page; after a password change the
 * browser that made it stays signed in. (test/system/session-end.test.ts checks every kind of consumer over
 * HTTP: pages, JSON routes, server actions.)
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Cookie } from '@playwright/test';
import { signIn } from '../test/support/browser.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import type { TestServer } from '../test/support/test-server.ts';

const PASSWORD = 'the first long password';
const NEW_PASSWORD = 'the second long password';

let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;

before(async () => {
  ({ server, browser, close } = await startServerAndBrowser());
  for (const email of ['ines@example.test', 'jon@example.test']) {
    const created = server.cli('user', 'create', '--email', email, '--password', PASSWORD);
    assert.equal(created.status, 0, created.stderr);
  }
});
after(() => close?.());

const newContext = () => browser.newContext({ viewport: { width: 1280, height: 800 } });

/** The session cookie, as someone with access to the browser's profile would take it. */
async function stealSessionCookie(context: BrowserContext): Promise<Cookie> {
  const cookie = (await context.cookies()).find((c) => c.name.endsWith('authjs.session-token'));
  assert.ok(cookie, 'the signed-in browser holds a session cookie');
  return cookie;
}

/** Opens /keys in a fresh browser holding only the copied cookie; returns the path it ends on. */
async function openWithCopy(cookie: Cookie): Promise<string> {
  const thief = await newContext();
  try {
    await thief.addCookies([cookie]);
    const page = await thief.newPage();
    await page.goto(`${server.baseUrl}/keys`);
    return new URL(page.url()).pathname;
  } finally {
    await thief.close();
  }
}

test('signing out in the browser ends a copied session cookie too', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await signIn(page, server.baseUrl, 'ines@example.test', PASSWORD);
  const copy = await stealSessionCookie(context);
  assert.equal(await openWithCopy(copy), '/keys', 'before sign-out the copy works (the test is real)');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${server.baseUrl}/`);
  assert.equal(await openWithCopy(copy), '/signin', 'after sign-out the copy is sent to sign in');
  await context.close();
});

test('changing the password ends a copied cookie; the browser that changed it stays signed in', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await signIn(page, server.baseUrl, 'jon@example.test', PASSWORD, '/account');
  const copy = await stealSessionCookie(context);

  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Change password' }) });
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByLabel(/^New password/).fill(NEW_PASSWORD);
  await form.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('status').filter({ hasText: 'this browser stays signed in' }).waitFor();

  assert.equal(await openWithCopy(copy), '/signin', 'the copy from before the change is sent to sign in');
  await page.goto(`${server.baseUrl}/keys`);
  assert.equal(new URL(page.url()).pathname, '/keys', 'the browser that changed the password is still signed in');
  await page.getByRole('heading', { name: 'Your API keys' }).waitFor();
  await context.close();
});
