/**
 * Sign-in without a return path of its own lands where the account's work is: staff on the support console, developers on their keys; a return path still wins. And a
 * tampered session cookie signs the browser out and is logged as a warn with a code, never an error.
 * At 1280 and 390 px, with axe on every page state.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from '@playwright/test';
import { UNREADABLE_SESSION_COOKIE } from '../lib/auth/auth-log.ts';
import { assertNoSeriousAxe } from '../test/support/axe.ts';
import { VIEWPORTS } from '../test/support/browser.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import type { TestServer } from '../test/support/test-server.ts';

const PASSWORD = 'a long enough password';
let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;

before(async () => {
  ({ server, browser, close } = await startServerAndBrowser());
});
after(() => close?.());

/** The client navigation after sign-in has rendered the new page: its title has replaced sign-in's. */
const pageRendered = (page: Page) =>
  page.waitForFunction(() => document.title !== '' && !document.title.startsWith('Sign in'));

/** Signs in through the form at /signin (with `next` when given); the path it lands on. */
async function signInAt(page: Page, email: string, next?: string): Promise<string> {
  await page.goto(`${server.baseUrl}/signin${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await assertNoSeriousAxe(page, 'the sign-in page');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/signin');
  await pageRendered(page);
  return new URL(page.url()).pathname;
}

/** The server's JSON log lines so far. */
function logLines(): { level?: string; msg?: string; code?: string }[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

for (const [width, viewport] of VIEWPORTS) {
  test(`at ${width} px, support lands on the support console, a developer on their keys, and a return path wins`, async () => {
    const staff = `desk-${width}@example.test`;
    const developer = `dev-${width}@example.test`;
    assert.equal(server.cli('user', 'create', '--email', staff, '--password', PASSWORD, '--role', 'support').status, 0);
    assert.equal(server.cli('user', 'create', '--email', developer, '--password', PASSWORD).status, 0);

    for (const [email, next, expected] of [
      [staff, undefined, '/support'],
      [developer, undefined, '/keys'],
      [staff, '/keys', '/keys'],
    ] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      assert.equal(await signInAt(page, email, next), expected, `${email} with next=${next}`);
      await assertNoSeriousAxe(page, `${expected} after sign-in`);
      // Signed in, /signin without a return path sends the account to the same place.
      if (!next) {
        await page.goto(`${server.baseUrl}/signin`);
        assert.equal(new URL(page.url()).pathname, expected, `${email}, already signed in`);
      }
      await context.close();
    }
  });

  test(`at ${width} px, a tampered session cookie signs the browser out and is logged as a warn with a code`, async () => {
    const email = `tamper-${width}@example.test`;
    assert.equal(server.cli('user', 'create', '--email', email, '--password', PASSWORD).status, 0);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    assert.equal(await signInAt(page, email), '/keys');
    const cookie = (await context.cookies()).find((c) => c.name.endsWith('authjs.session-token'));
    assert.ok(cookie, 'signed in, the browser holds a session cookie');
    const middle = Math.floor(cookie.value.length / 2);
    const flipped = cookie.value[middle] === 'A' ? 'B' : 'A';
    await context.addCookies([
      { ...cookie, value: cookie.value.slice(0, middle) + flipped + cookie.value.slice(middle + 1) },
    ]);
    const before = logLines().length;

    await page.goto(`${server.baseUrl}/keys`);
    assert.equal(new URL(page.url()).pathname, '/signin', 'the tampered cookie is no session');
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    await assertNoSeriousAxe(page, 'sign-in after a tampered cookie');

    const added = logLines().slice(before);
    assert.ok(
      added.some((line) => line.level === 'warn' && line.code === UNREADABLE_SESSION_COOKIE),
      `a warn with code ${UNREADABLE_SESSION_COOKIE}: ${JSON.stringify(added)}`,
    );
    assert.deepEqual(
      added.filter((line) => line.level === 'error'),
      [],
      'nothing logged as an error',
    );
    await context.close();
  });
}
