/**
 * An action sent after the session ended says what did not happen, offers sign-in, and
 * comes back to the same dialog. A developer opens Disable…, the session ends (signed out in another tab
 * of the same browser), and "Disable key" answers "You were signed out; the key was not disabled." in the
 * dialog, the header no longer shows the account, and /mcp still takes the key; "Sign in again" returns
 * to the key's page with the dialog open, and only the second confirm stops the key. At 1280 and 390 px,
 * with axe on every state.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, expect } from '@playwright/test';
import { assertNoSeriousAxe } from '../test/support/axe.ts';
import { signIn, VIEWPORTS } from '../test/support/browser.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
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

const mcpStatus = async (secret: string) =>
  (await postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'ethanol' }), bearer(secret)))
    .status;

for (const [width, viewport] of VIEWPORTS) {
  test(`at ${width} px, "Disable key" after the session ended says the key was not disabled, and sign-in comes back to the dialog`, async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const email = `late-${width}@example.test`;
    assert.equal(server.cli('user', 'create', '--email', email, '--password', PASSWORD).status, 0);
    // rps 1000: the key is called several times in a row.
    const key = server.cliJson('key', 'create', '--owner', email, '--name', 'night job', '--rps', '1000');
    const keyPage = `/keys/${key.id}`;
    await signIn(page, server.baseUrl, email, PASSWORD, keyPage);

    await page.getByRole('button', { name: 'Disable…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable this key?' });
    await dialog.getByLabel(/Reason/).fill('job retired');
    await assertNoSeriousAxe(page, 'the disable dialog, signed in');

    // The session ends elsewhere: the account signs out in another tab of this browser.
    const other = await context.newPage();
    await other.goto(`${server.baseUrl}/account`);
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.waitForURL(`${server.baseUrl}/`);
    await other.close();

    await dialog.getByRole('button', { name: 'Disable key' }).click();
    const refusal = dialog.getByRole('alert');
    await expect(refusal).toContainText('You were signed out; the key was not disabled.');
    await expect(dialog).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('banner').getByText(email)).toHaveCount(0);
    assert.equal(await mcpStatus(key.key), 200, 'the key still works: nothing was disabled');
    await assertNoSeriousAxe(page, 'the disable dialog, signed out');

    await refusal.getByRole('link', { name: 'Sign in again' }).click();
    await page.waitForURL((url) => url.pathname === '/signin');
    assert.equal(new URL(page.url()).searchParams.get('next'), `${keyPage}?dialog=disable`);
    await assertNoSeriousAxe(page, 'sign-in on the way back');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL((url) => url.pathname === keyPage);
    // The client navigation has rendered the key's page: its title has replaced sign-in's.
    await page.waitForFunction(() => document.title !== '' && !document.title.startsWith('Sign in'));
    await expect(dialog).toBeVisible();
    await expect(page.getByRole('banner').getByText(email)).toBeVisible();
    assert.equal(new URL(page.url()).searchParams.get('dialog'), null, 'a reload does not open the dialog again');
    await assertNoSeriousAxe(page, 'the disable dialog, back after sign-in');
    assert.equal(await mcpStatus(key.key), 200, 'still working before the second confirm');

    await dialog.getByRole('button', { name: 'Disable key' }).click();
    await page.getByText('The key is disabled: calls with it now get 401.').waitFor();
    assert.equal(await mcpStatus(key.key), 401, 'the second confirm disabled the key');
    // The page re-renders after the action; axe reads it once it has its title again.
    await page.waitForFunction(() => document.title !== '');
    await assertNoSeriousAxe(page, 'the key page, disabled');
    await context.close();
  });
}
