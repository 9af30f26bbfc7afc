/**
 * Binding a messaging-app follower from /account, in the browser against the production
 * server with WeChat and Telegram open: a developer gets a bind code (large, copyable, with its expiry and
 * what to send in each app); the code is sent (redeemed on the server's database, as the chat would);
 * the page lists the follower; the developer unbinds it through the dialog and it is gone; staff read
 * both events in the audit trail with the app and the follower. A server with no app open says so and
 * offers no code. axe on every page state, and no sideways scroll at 320, 768 and 1280 px.
 */
// test-isolation: process (bind codes are digests under the server's key-hash secret, which lib/keys/hash.ts reads once per process)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expect, type Page } from '@playwright/test';
import { redeemBindCode } from '../lib/channels/bindings.ts';
import { createDb } from '../lib/db/client.ts';
import { seriousAxeViolations } from '../test/support/axe.ts';
import { saveScreenshot, signIn } from '../test/support/browser.ts';
import { withServerAndBrowser } from '../test/support/server-and-browser.ts';

const PASSWORD = 'correct horse battery staple';
const DEVELOPER = 'ada@example.test';
const OPEN_ID = 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o';
const WIDTHS = [320, 768, 1280];
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** axe and no sideways scroll at each width; the page is left at 1280 px. */
async function checkWidths(page: Page, state: string, selector?: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    assert.deepEqual(await seriousAxeViolations(page, selector), [], `${state} at ${width} px`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${state}: ${overflow} px wider than a ${width} px screen`);
  }
}

/** Clicks "Get a bind code" on a page that shows none yet and reads the code it shows. */
async function getBindCode(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Get a bind code', exact: true }).click();
  const code = page.getByRole('status').filter({ hasText: 'Your bind code' }).locator('code');
  await expect(code).toHaveText(CODE);
  return (await code.textContent())!;
}

test('a developer binds a WeChat follower with a code from /account and unbinds it; staff see both in the audit trail', async (t) => {
  const { server, browser } = await withServerAndBrowser(t, {
    WECHAT_TOKEN: 'chemflowtoken',
    TELEGRAM_BOT_TOKEN: '123456:e2e-telegram-token',
    TELEGRAM_WEBHOOK_SECRET: 'e2e_webhook_secret',
  });
  server.cliOk('user', 'create', '--email', DEVELOPER, '--password', PASSWORD);
  server.cliOk('user', 'create', '--email', 'grace@example.test', '--password', PASSWORD, '--role', 'support');
  // The chat's side, on the server's database: bind codes are digests under its key-hash secret.
  process.env.KEY_HASH_SECRET_FILE = server.env.KEY_HASH_SECRET_FILE;
  const db = createDb(server.env.DATABASE_URL!);
  t.after(() => db.$disconnect());

  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, server.baseUrl, DEVELOPER, PASSWORD, '/account');
  const section = page.getByRole('region', { name: 'Messaging apps' });
  await section
    .getByText('Bind a WeChat or Telegram account to this one to manage your keys and see their usage from the chat.')
    .waitFor();
  await section.getByText('No messaging-app account is bound to this one.').waitFor();
  await checkWidths(page, '/account before a code');

  const code = await getBindCode(page);
  const shown = section.getByRole('status').filter({ hasText: 'Your bind code' });
  await expect(shown).toContainText(/It works for 10 minutes, until \d\d:\d\d UTC, once\./);
  await expect(section.getByRole('listitem').filter({ hasText: 'WeChat:' })).toHaveText(
    `WeChat: send ${code} as a message to the Official Account.`,
  );
  await expect(section.getByRole('listitem').filter({ hasText: 'Telegram:' })).toHaveText(
    `Telegram: send /bind ${code} to the bot.`,
  );
  await section.getByRole('button', { name: 'Copy code' }).waitFor();
  await checkWidths(page, '/account with a code');

  // The follower sends the code in WeChat.
  const bound = await redeemBindCode(db, { channel: 'wechat', id: OPEN_ID }, code);
  assert.equal(bound.kind === 'bound' && bound.viewer.email, DEVELOPER);

  await page.reload();
  const followers = section.getByRole('list', { name: 'Bound to this account' });
  const row = followers.getByRole('listitem');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(/^WeChat follower oUpF…eS6o, bound since \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  // A second code, for the manual's picture of both: a code shown and a follower bound.
  const second = await getBindCode(page);
  assert.notEqual(second, code);
  await checkWidths(page, '/account with a code and a follower');
  await saveScreenshot(page, 'account-messaging-apps-1280');

  await row.getByRole('button', { name: 'Unbind…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unbind this WeChat follower?' });
  await dialog.getByText('will no longer speak for this account').waitFor();
  await checkWidths(page, 'the unbind dialog', 'dialog[open]');
  await dialog.getByRole('button', { name: 'Unbind', exact: true }).click();
  await section
    .getByRole('status')
    .filter({ hasText: 'Unbound the WeChat follower oUpF…eS6o: it no longer speaks for this account.' })
    .waitFor();
  await section.getByText('No messaging-app account is bound to this one.').waitFor();
  assert.equal(await db.channelBinding.count(), 0, 'the binding is gone from the database');
  await checkWidths(page, '/account after unbinding');

  const staff = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(staff, server.baseUrl, 'grace@example.test', PASSWORD, '/support/audit');
  await staff.goto(`${server.baseUrl}/support/audit?actor=${encodeURIComponent(DEVELOPER)}`);
  for (const [action, by, changes] of [
    ['channel.bind', `developer:${DEVELOPER} via WeChat`, ['messaging app: WeChat', `follower: ${OPEN_ID}`]],
    ['channel.unbind', `developer:${DEVELOPER}`, ['messaging app: WeChat (removed)', `follower: ${OPEN_ID} (removed)`]],
  ] as const) {
    const event = staff.getByRole('row').filter({ has: staff.getByRole('cell', { name: action, exact: true }) });
    await expect(event).toHaveCount(1);
    await expect(event.getByRole('cell').nth(1)).toContainText(by);
    await expect(event.getByRole('cell').nth(5).getByRole('listitem')).toHaveText([...changes]);
  }
  await checkWidths(staff, 'the audit trail with channel events');
});

test('a server with no messaging app open says so on /account and offers no bind code', async (t) => {
  const { server, browser } = await withServerAndBrowser(t, { WECHAT_TOKEN: undefined, TELEGRAM_BOT_TOKEN: undefined });
  server.cliOk('user', 'create', '--email', DEVELOPER, '--password', PASSWORD);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, server.baseUrl, DEVELOPER, PASSWORD, '/account');
  const section = page.getByRole('region', { name: 'Messaging apps' });
  await section
    .getByText('The messaging apps are not set up on this server, so there is nothing to bind yet.')
    .waitFor();
  assert.equal(await section.getByRole('button').count(), 0, 'no code to get, nothing to unbind');
  await checkWidths(page, '/account with no app open');
});
