/**
 * The portal while its database is away: a signed-in developer gets a friendly page (what happened, that
 * it is not their fault, a way to try again), never Next's bare "Application error" or a stack trace;
 * once the database is back, "Try again" brings the page back without signing in again. The database
 * is PostgreSQL behind a TCP proxy that the test cuts and restores (test/support/tcp-proxy.ts), so the
 * shared PostgreSQL server keeps running. Skipped when no PostgreSQL answers, except under CI=true.
 */
import { test } from 'node:test';
import { expect } from '@playwright/test';
import { launchBrowser, signUp } from '../test/support/browser.ts';
import { startServerBehindProxy } from '../test/support/tcp-proxy.ts';

const INTERNALS =
  /Application error|a server-side exception|\bat \w+ \(|node_modules|ECONN|PrismaClient|Can't reach database/;

test('a signed-in developer sees a friendly page while the database is away, and the portal recovers', async (t) => {
  const started = await startServerBehindProxy(t);
  if (!started) return;
  const { server, proxy } = started;
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const page = await (await browser.newContext()).newPage();
  await signUp(page, server.baseUrl, 'outage@example.test');
  await page.getByRole('heading', { name: 'Your API keys' }).waitFor();

  proxy.cut();
  try {
    await page.reload();
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: /unavailable right now/ })).toBeVisible({ timeout: 15_000 });
    await expect(alert).toContainText('not your fault');
    await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible();
    const text = await page.locator('body').innerText();
    if (INTERNALS.test(text)) throw new Error(`the error page shows internals:\n${text}`);
  } finally {
    proxy.restore();
  }

  // The server reconnects by itself; "Try again" fetches the page again (retried, in case the pool is
  // still reconnecting at the first click).
  await expect(async () => {
    await page
      .getByRole('button', { name: 'Try again' })
      .click({ timeout: 2_000 })
      .catch(() => {});
    await expect(page.getByRole('heading', { name: 'Your API keys' })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
});
