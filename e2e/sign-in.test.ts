/**
 * Sign-up, sign-in and sign-out in the browser against the production server: precise form errors, one
 * generic answer for a wrong email or password, throttling after repeated failures, the return to the
 * page that asked for sign-in (same site only), and GitHub offered only when it is configured.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from '@playwright/test';
import { SIGNED_UP_MESSAGE, SIGNED_UP_NOTICE } from '../lib/auth/sign-up-notice.ts';
import { assertFitsPhoneWidth, saveScreenshot, signIn, signUp } from '../test/support/browser.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import { startTestServer, type TestServer } from '../test/support/test-server.ts';

let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;

before(async () => {
  ({ server, browser, close } = await startServerAndBrowser());
});
after(() => close?.());

async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

async function submitSignIn(page: Page, email: string, password: string) {
  await page.goto(`${server.baseUrl}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('sign-up explains what to fix, and answers an email already registered exactly like a new one', async () => {
  const page = await freshPage();
  await page.goto(`${server.baseUrl}/signup`);
  await page.getByLabel('Email').fill('mia@example.test');
  await page.getByLabel(/^Password/).fill('a long enough password');
  await page.getByLabel('Repeat the password').fill('a different long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('alert').filter({ hasText: 'The two passwords differ' }).waitFor();
  await saveScreenshot(page, 'sign-up-error-1280');

  await signUp(page, server.baseUrl, 'mia@example.test');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${server.baseUrl}/`);
  await page.goto(`${server.baseUrl}/signup`);
  await page.getByLabel('Email').fill('MIA@example.test');
  await page.getByLabel(/^Password/).fill('another long password');
  await page.getByLabel('Repeat the password').fill('another long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The same page and notice as for a new email (test/support/browser.ts signUp), and nobody signed in.
  await page.waitForURL(`${server.baseUrl}/signin?notice=${SIGNED_UP_NOTICE}`);
  await page.getByRole('status').filter({ hasText: SIGNED_UP_MESSAGE }).waitFor();
  assert.equal(await page.getByText(/already exists/i).count(), 0);
  await saveScreenshot(page, 'sign-up-done-1280');
  await submitSignIn(page, 'mia@example.test', 'another long password');
  await page.locator('form [role="alert"]').filter({ hasText: 'Wrong email or password.' }).waitFor();
  await signIn(page, server.baseUrl, 'mia@example.test', 'correct horse battery staple');
  await page.context().close();
});

test('a wrong password and an unknown email get the same answer; a page that needs sign-in comes back after it', async () => {
  const page = await freshPage();
  await submitSignIn(page, server.adminEmail, 'not the admin password');
  // The form's alert (Next's route announcer is an alert too).
  const formAlert = page.locator('form [role="alert"]');
  const wrongPassword = await formAlert.textContent();
  await submitSignIn(page, 'nobody@example.test', 'whatever password');
  await formAlert.waitFor();
  const unknownEmail = await formAlert.textContent();
  assert.equal(wrongPassword, 'Wrong email or password.');
  assert.equal(unknownEmail, wrongPassword);
  await saveScreenshot(page, 'sign-in-1280');
  await assertFitsPhoneWidth(page);

  const response = await page.goto(`${server.baseUrl}/keys`);
  assert.equal(new URL(page.url()).pathname, '/signin', 'signed out, /keys sends the visitor to sign in');
  assert.equal(new URL(page.url()).searchParams.get('next'), '/keys');
  assert.equal(response?.status(), 200);
  await signIn(page, server.baseUrl, server.adminEmail, server.adminPassword!, '/keys');
  await page.context().close();
});

test('sign-in only returns to pages of this site, however the next address is disguised', async () => {
  const page = await freshPage();
  for (const next of [
    '//evil.example/phish',
    '/\\evil.example/',
    '/%5Cevil.example/',
    '/\t/evil.example',
    '/%09/evil.example',
    '/.//evil.example',
    'https://evil.example/',
  ]) {
    // As a link would carry it: the value percent-encoded once.
    await page.goto(`${server.baseUrl}/signin?next=${encodeURIComponent(next)}`);
    await page.getByLabel('Email').fill(server.adminEmail);
    await page.getByLabel('Password').fill(server.adminPassword!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === server.baseUrl && url.pathname !== '/signin', { timeout: 15_000 });
    assert.equal(new URL(page.url()).origin, server.baseUrl, next);
    // Signed in, the same link sends the browser on at once: still to this site.
    await page.goto(`${server.baseUrl}/signin?next=${encodeURIComponent(next)}`);
    assert.equal(new URL(page.url()).origin, server.baseUrl, `signed in, ${next}`);
    await page.context().clearCookies();
  }
  await page.context().close();
});

test('after 5 failed sign-ins an account is locked for a while, even with the right password', async () => {
  const page = await freshPage();
  await signUp(page, server.baseUrl, 'lockme@example.test', 'the right password here');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${server.baseUrl}/`);
  for (let i = 0; i < 5; i++) {
    await submitSignIn(page, 'lockme@example.test', `wrong password ${i}`);
    await page.getByRole('alert').filter({ hasText: 'Wrong email or password.' }).waitFor();
  }
  await submitSignIn(page, 'lockme@example.test', 'the right password here');
  await page
    .getByRole('alert')
    .filter({ hasText: /Too many failed sign-ins\. Try again in \d+ minutes?/ })
    .waitFor();
  assert.equal(new URL(page.url()).pathname, '/signin');
  // Other accounts are unaffected.
  await signIn(page, server.baseUrl, server.adminEmail, server.adminPassword!);
  await page.context().close();
});

test('GitHub sign-in is offered only when AUTH_GITHUB_ID and AUTH_GITHUB_SECRET are set', async () => {
  const providers = async (base: string) => Object.keys(await (await fetch(`${base}/api/auth/providers`)).json());
  assert.deepEqual(await providers(server.baseUrl), ['credentials']);
  const page = await freshPage();
  await page.goto(`${server.baseUrl}/signin`);
  assert.equal(await page.getByRole('button', { name: 'Sign in with GitHub' }).count(), 0);

  const withGithub = await startTestServer({
    AUTH_GITHUB_ID: 'Iv1.testclient',
    AUTH_GITHUB_SECRET: 'test-client-secret',
  });
  try {
    assert.deepEqual((await providers(withGithub.baseUrl)).sort(), ['credentials', 'github']);
    await page.goto(`${withGithub.baseUrl}/signin`);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
  } finally {
    await page.context().close();
    await withGithub.stop();
  }
});

test('a user changes their password on /account and signs in with the new one', async () => {
  const page = await freshPage();
  await signUp(page, server.baseUrl, 'rotate@example.test', 'the first password');
  await page.getByRole('link', { name: 'rotate@example.test' }).click();
  await page.waitForURL(`${server.baseUrl}/account`);
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Change password' }) });
  await form.getByLabel('Current password').fill('not my password');
  await form.getByLabel(/^New password/).fill('the second password');
  await form.getByLabel('Repeat the new password').fill('the second password');
  await form.getByRole('button', { name: 'Change password' }).click();
  await form.locator('[role="alert"]').filter({ hasText: 'The current password is wrong' }).waitFor();

  await form.getByLabel('Current password').fill('the first password');
  await form.getByLabel(/^New password/).fill('the second password');
  await form.getByLabel('Repeat the new password').fill('the second password');
  await form.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
  await saveScreenshot(page, 'account-1280');
  await assertFitsPhoneWidth(page);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${server.baseUrl}/`);
  await submitSignIn(page, 'rotate@example.test', 'the first password');
  await page.locator('form [role="alert"]').filter({ hasText: 'Wrong email or password.' }).waitFor();
  await signIn(page, server.baseUrl, 'rotate@example.test', 'the second password');
  await page.context().close();
});
