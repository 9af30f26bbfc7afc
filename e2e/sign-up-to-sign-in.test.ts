/**
 * After sign-up, the sign-in page has the email just used filled in and the cursor in the password, for
 * a new email and an existing one alike (the page answers both the same). The email is never in the
 * address, another browser gets an empty form, and once used it is not filled in again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expect } from '@playwright/test';
import { SIGNED_UP_NOTICE } from '../lib/auth/sign-up-notice.ts';
import { seriousAxeViolations } from '../test/support/axe.ts';
import { DESKTOP, PHONE, submitSignUp } from '../test/support/browser.ts';
import { withServerAndBrowser } from '../test/support/server-and-browser.ts';

const PASSWORD = 'correct horse battery staple';

test('after sign-up the email is filled in and the password has the focus; typing it and Enter signs in', async (t) => {
  const { server, browser } = await withServerAndBrowser(t);
  const base = server.baseUrl;
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();

  await submitSignUp(page, base, 'Newcomer@Example.test', PASSWORD);
  assert.ok(!page.url().toLowerCase().includes('newcomer'), 'the email is not in the address');
  await expect(page.getByLabel('Email')).toHaveValue('newcomer@example.test');
  await expect(page.getByLabel('Password')).toBeFocused();
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    assert.deepEqual(await seriousAxeViolations(page), [], `sign-in after sign-up at ${viewport.width} px`);
  }
  await page.setViewportSize(DESKTOP);
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}/keys`);

  // Used once: after signing out, the same notice page has an empty form.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${base}/`);
  await page.goto(`${base}/signin?notice=${SIGNED_UP_NOTICE}`);
  await expect(page.getByLabel('Email')).toHaveValue('');
  await expect(page.getByLabel('Password')).not.toBeFocused();

  // An email that already has an account: the same page, filled in the same way; its password is unchanged.
  await submitSignUp(page, base, 'newcomer@example.test', 'another long password');
  await expect(page.getByLabel('Email')).toHaveValue('newcomer@example.test');
  await expect(page.getByLabel('Password')).toBeFocused();

  // Another browser following the same address learns nothing.
  const stranger = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await stranger.goto(`${base}/signin?notice=${SIGNED_UP_NOTICE}`);
  await expect(stranger.getByLabel('Email')).toHaveValue('');

  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/keys`);
});
