/**
 * The portal on PostgreSQL (DATABASE_URL=postgresql://…, a fresh database): the same Prisma schema
 * serves sign-up, key creation, live usage, the support search (partial email), an upgrade approval
 * (tier change and request decision in one transaction), a disable with its audit event, and /mcp
 * obeys each change. Skipped when no PostgreSQL answers, except under CI=true.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { expect } from '@playwright/test';
import { launchBrowser, signIn, signUp } from '../test/support/browser.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
import { scratchPostgresUrl } from '../test/support/test-databases.ts';
import { startTestServer, type TestServer } from '../test/support/test-server.ts';

const DESKTOP = { width: 1280, height: 800 };

test('a developer and an admin use the portal on PostgreSQL', async (t) => {
  let server: TestServer | undefined;
  // Registered before the scratch database's cleanup, so the server lets go of it before it is dropped.
  t.after(async () => server?.stop());
  const url = await scratchPostgresUrl(t);
  if (!url) return;
  server = await startTestServer({
    DATABASE_URL: url,
    KEY_HASH_SECRET: randomBytes(32).toString('hex'),
    AUTH_SECRET: randomBytes(32).toString('hex'),
  });
  const { baseUrl, mcpUrl } = server;
  const browser = await launchBrowser();
  t.after(() => browser.close());

  const dev = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signUp(dev, baseUrl, 'pg-dev@example.test');
  await dev.getByRole('button', { name: 'Create your first key' }).click();
  const form = dev.getByRole('dialog', { name: 'Create a key' });
  await form.getByLabel('Name').fill('pg agent');
  await form.getByRole('button', { name: 'Create key' }).click();
  const reveal = dev.getByRole('dialog', { name: 'Key "pg agent" created' });
  const secret = await reveal.getByLabel(/Your new API key/).inputValue();
  await reveal.getByRole('button', { name: 'I have stored it' }).click();

  const call = () => postMcp(mcpUrl, toolCall('service_query_compound', { compound_name: 'ethanol' }), bearer(secret));
  assert.equal((await call()).status, 200);
  await dev.getByRole('link', { name: 'pg agent' }).click();
  const today = dev.getByRole('table', { name: "Today's calls by tool" });
  await expect(today.getByRole('row', { name: /service_query_compound/ }).getByRole('cell')).toHaveText(
    ['1', '0', '0'],
    { timeout: 15_000 },
  );
  const keyId = new URL(dev.url()).pathname.split('/').pop()!;

  await dev.goto(`${baseUrl}/upgrade?key=${keyId}`);
  await dev.getByLabel(/^Use case/).fill('Batch property lookups for a process simulator.');
  await dev.getByLabel(/^Expected calls per day/).fill('5000');
  await dev.getByRole('button', { name: 'Request Pro' }).click();
  await dev.getByRole('status').filter({ hasText: 'Request sent' }).waitFor();

  const admin = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signIn(admin, baseUrl, server.adminEmail, server.adminPassword!, '/support/upgrades');
  await admin.getByRole('button', { name: 'Approve: make the key Pro' }).click();
  await admin.getByText('No pending requests.').waitFor();
  const burst = await Promise.all([1, 2, 3].map(call));
  assert.deepEqual(
    burst.map((a) => a.status),
    [200, 200, 200],
    'Pro allows a burst the free tier refuses',
  );

  await admin.goto(`${baseUrl}/support`);
  await admin.getByLabel(/^Find a key/).fill('pg-dev');
  await admin.getByRole('button', { name: 'Search' }).click();
  await admin.getByRole('link', { name: /^Open key .* \(pg agent\)$/ }).click();
  await admin.waitForURL(`${baseUrl}/support/keys/${keyId}`);
  await admin.getByRole('button', { name: 'Disable…' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Disable this key?' });
  await dialog.getByLabel(/^Reason/).fill('PostgreSQL story');
  await dialog.getByRole('button', { name: 'Disable key' }).click();
  await admin.getByRole('status').filter({ hasText: 'Key disabled' }).waitFor();
  // PostgreSQL delivers the change to /mcp's key cache by NOTIFY: allow it a moment.
  await expect.poll(async () => (await call()).status, { timeout: 5_000 }).toBe(401);

  await admin.goto(`${baseUrl}/support/audit?key=${keyId}`);
  for (const action of ['key.issue', 'key.update', 'key.disable']) {
    await admin.getByRole('row').filter({ hasText: action }).first().waitFor();
  }
});
