/**
 * A paste over the Leaked keys form's 1 MB limit gets the form's own message, not Next's error page:
 * the server actions' body limit (next.config.js, 4 MB) leaves room for the service to answer. A paste
 * just under the limit, with non-ASCII text around the secret, still disables the key.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signIn } from '../test/support/browser.ts';
import { withServerAndBrowser } from '../test/support/server-and-browser.ts';

const PASSWORD = 'correct horse battery staple';

test('Leaked keys: a paste over 1 MB is refused on the form with a message; one just under it (3-byte characters: 2.9 MB) is processed', async (t) => {
  const { server, browser } = await withServerAndBrowser(t);
  const created = server.cli(
    'user',
    'create',
    '--email',
    'grace@example.test',
    '--password',
    PASSWORD,
    '--role',
    'support',
  );
  assert.equal(created.status, 0, created.stderr);
  const issued = server.cli('key', 'create', '--owner', server.adminEmail, '--name', 'ci', '--json');
  assert.equal(issued.status, 0, issued.stderr);
  const { key } = JSON.parse(issued.stdout);
  const page = await (await browser.newContext()).newPage();
  await signIn(page, server.baseUrl, 'grace@example.test', PASSWORD, '/support/leaks');

  const submit = async (text: string) => {
    await page.getByLabel(/^Text with leaked secrets/).fill(text);
    await page.getByLabel(/^Where were they found/).fill('https://paste.example/big');
    await page.getByLabel(/Disable every active key whose secret is in this text/).check();
    await page.getByRole('button', { name: 'Disable leaked keys' }).click();
  };
  await submit(`${key}\n${'x'.repeat(1_000_001)}`);
  await page
    .getByRole('alert')
    .filter({ hasText: 'That text is over 1 MB; split it into smaller pastes.' })
    .waitFor({ timeout: 60_000 });
  assert.equal(JSON.parse(server.cli('key', 'show', key, '--json').stdout).status, 'active', 'nothing was disabled');

  // "€" is 3 bytes of UTF-8: just under a million characters is close to 3 MB on the wire.
  await submit(`${key}\n${'€'.repeat(999_000)}`);
  await page.getByRole('region', { name: 'Outcome' }).waitFor({ timeout: 60_000 });
  assert.equal(JSON.parse(server.cli('key', 'show', key, '--json').stdout).status, 'leaked');
});
