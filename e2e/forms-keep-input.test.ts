/**
 * A form the server refuses keeps everything that was typed, shows the message at the field it is about
 * (aria-invalid, aria-describedby) and moves the focus there. Walked in Chromium at 1280 and 390 px on
 * four forms: sign-in (email), sign-up (all four fields), the upgrade
 * request (use case, expected calls, contact) and support's tier-and-limits form; axe runs on every state.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, expect, type Locator } from '@playwright/test';
import { assertNoSeriousAxe } from '../test/support/axe.ts';
import { signIn, VIEWPORTS } from '../test/support/browser.ts';
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

/** The field is marked invalid, described by a message with `text` that sits in the form, and has the focus. */
async function assertRefusedAt(field: Locator, text: string | RegExp) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeFocused();
  const describedBy = await field.getAttribute('aria-describedby');
  assert.ok(describedBy, 'the field names its message');
  const message = field.page().locator(`[id="${describedBy}"]`);
  await expect(message).toHaveText(text);
  await expect(message).toBeVisible();
}

for (const [width, viewport] of VIEWPORTS) {
  test(`at ${width} px, sign-in keeps the email after a wrong password, and sign-up keeps all four fields`, async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const email = `kept-${width}@example.test`;
    assert.equal(server.cli('user', 'create', '--email', email, '--password', PASSWORD).status, 0);

    await page.goto(`${server.baseUrl}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('form [role="alert"]').filter({ hasText: 'Wrong email or password.' }).waitFor();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByLabel('Password')).toHaveValue('not the password');
    await assertNoSeriousAxe(page, 'sign-in refused');

    await page.goto(`${server.baseUrl}/signup`);
    const typed = {
      name: 'Lin Kept',
      email: `new-${width}@example.test`,
      password: 'the first long password',
      confirm: 'a different long password',
    };
    await page.getByLabel(/^Name/).fill(typed.name);
    await page.getByLabel('Email').fill(typed.email);
    await page.getByLabel(/^Password/).fill(typed.password);
    await page.getByLabel('Repeat the password').fill(typed.confirm);
    await page.getByRole('button', { name: 'Create account' }).click();
    const confirm = page.getByLabel('Repeat the password');
    await assertRefusedAt(confirm, 'The two passwords differ; type the same password twice.');
    await expect(page.getByLabel(/^Name/)).toHaveValue(typed.name);
    await expect(page.getByLabel('Email')).toHaveValue(typed.email);
    await expect(page.getByLabel(/^Password/)).toHaveValue(typed.password);
    await expect(confirm).toHaveValue(typed.confirm);
    await expect(page.getByLabel('Email')).not.toHaveAttribute('aria-invalid', 'true');
    await assertNoSeriousAxe(page, 'sign-up refused at the repeated password');

    // Fixing the one field is enough: the rest was never lost.
    await confirm.fill(typed.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/signin\?notice=/);
    await context.close();
  });

  test(`at ${width} px, the upgrade request keeps use case, expected calls and contact when the number is refused`, async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const email = `asks-${width}@example.test`;
    assert.equal(server.cli('user', 'create', '--email', email, '--password', PASSWORD).status, 0);
    server.cliOk('key', 'create', '--owner', email, '--name', 'agent');
    await signIn(page, server.baseUrl, email, PASSWORD, '/upgrade');

    const useCase = 'Our agent screens solvents for a pilot plant,\nabout 40 compounds an hour.';
    await page.getByLabel(/^Use case/).fill(useCase);
    await page.getByLabel(/^Expected calls per day/).fill('2000000000');
    await page.getByLabel(/^Contact/).fill('ops on-call, +44 20 7946 0000');
    await page.getByRole('button', { name: 'Request Pro' }).click();
    const calls = page.getByLabel(/^Expected calls per day/);
    await assertRefusedAt(calls, /^Expected calls per day must be a whole number of at least 1 and at most/);
    await expect(page.getByLabel(/^Use case/)).toHaveValue(useCase);
    await expect(calls).toHaveValue('2000000000');
    await expect(page.getByLabel(/^Contact/)).toHaveValue('ops on-call, +44 20 7946 0000');
    await assertNoSeriousAxe(page, 'upgrade request refused at expected calls');

    await calls.fill('20000');
    await page.getByRole('button', { name: 'Request Pro' }).click();
    await page.waitForURL(/\/upgrade\?sent=1/);
    await context.close();
  });

  test(`at ${width} px, support's tier-and-limits form keeps every field when the daily quota is refused`, async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const staff = `staff-${width}@example.test`;
    assert.equal(server.cli('user', 'create', '--email', staff, '--password', PASSWORD, '--role', 'support').status, 0);
    const key = server.cliJson('key', 'create', '--owner', staff, '--name', `limits ${width}`);
    await signIn(page, server.baseUrl, staff, PASSWORD, `/support/keys/${key.id}`);

    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Save settings' }) });
    await form.getByRole('combobox', { name: /^Tier/ }).selectOption('pro');
    await form.getByLabel(/^Daily quota/).fill('2000000000');
    await form.getByLabel(/^Per-second limit/).fill('7');
    await form.getByLabel(/^Expires on/).fill('2030-06-30');
    await form.getByLabel(/^Reason/).fill('load test (ticket SUP-4411)');
    await form.getByRole('button', { name: 'Save settings' }).click();
    const quota = form.getByLabel(/^Daily quota/);
    await assertRefusedAt(quota, /^The daily quota must be a whole number of at least 1 and at most/);
    await expect(form.getByRole('combobox', { name: /^Tier/ })).toHaveValue('pro');
    await expect(quota).toHaveValue('2000000000');
    await expect(form.getByLabel(/^Per-second limit/)).toHaveValue('7');
    await expect(form.getByLabel(/^Expires on/)).toHaveValue('2030-06-30');
    await expect(form.getByLabel(/^Reason/)).toHaveValue('load test (ticket SUP-4411)');
    await assertNoSeriousAxe(page, 'settings refused at the daily quota');
    assert.equal(server.cliJson('key', 'show', key.id).tier, 'free', 'nothing was saved');

    await quota.fill('50000');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved:' }).waitFor();
    await expect(quota).not.toHaveAttribute('aria-invalid', 'true');
    await context.close();
  });
}
