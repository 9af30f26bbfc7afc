/**
 * The portal's Content-Security-Policy in a real browser against the production server: every main
 * page, signed out and signed in as an admin (charts, live usage panels, staff and admin pages), loads
 * and hydrates with no CSP violation and no CSP message in the console. The control: markup injected
 * into a page (an inline event handler, the classic XSS payload) is refused and reported.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from '@playwright/test';
import { signIn } from '../test/support/browser.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import type { TestServer } from '../test/support/test-server.ts';

let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;

before(async () => {
  ({ server, browser, close } = await startServerAndBrowser());
});
after(() => close?.());

interface Watched {
  page: Page;
  /** CSP violations the page reported, and console messages about CSP, so far. */
  problems: () => Promise<string[]>;
}

/** A page that records every securitypolicyviolation event (from before its first script) and CSP console message. */
async function watchedPage(): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      ),
    );
  });
  const page = await context.newPage();
  const consoleMessages: string[] = [];
  page.on('console', (message) => {
    if (/content.security.policy/i.test(message.text())) consoleMessages.push(`console: ${message.text()}`);
  });
  return {
    page,
    problems: async () => [
      ...consoleMessages,
      ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
    ],
  };
}

/** Opens a page, waits until it is idle and hydrated (Next's runtime ran), and returns the CSP problems it hit. */
async function visit({ page, problems }: Watched, path: string, expectedStatus = 200): Promise<string[]> {
  const response = await page.goto(server.baseUrl + path, { waitUntil: 'networkidle' });
  assert.equal(response?.status(), expectedStatus, path);
  assert.ok(
    await page.evaluate(() => Array.isArray((self as unknown as { __next_f?: unknown[] }).__next_f)),
    `${path}: Next's inline bootstrap ran`,
  );
  // React hydrated the page: it attaches its fiber to the DOM nodes it takes over (the nav is a client component).
  await page.waitForFunction(() =>
    Object.keys(document.querySelector('header nav') ?? {}).some((name) => name.startsWith('__reactFiber')),
  );
  return problems();
}

test('every main page loads and hydrates without a CSP violation', async () => {
  const key = JSON.parse(
    server.cli('key', 'create', '--owner', server.adminEmail, '--name', 'csp check', '--tier', 'pro', '--json').stdout,
  ) as { id: string; key: string };
  // A call, so the usage charts have a bar to draw.
  assert.equal(
    (await postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'water' }), bearer(key.key)))
      .status,
    200,
  );

  const visitor = await watchedPage();
  const signedOut: [string, number?][] = [['/'], ['/docs'], ['/signin'], ['/signup'], ['/no-such-page', 404]];
  for (const [path, status] of signedOut) assert.deepEqual(await visit(visitor, path, status), [], path);

  const admin = await watchedPage();
  await signIn(admin.page, server.baseUrl, server.adminEmail, server.adminPassword!);
  const signedIn = [
    '/keys',
    `/keys/${key.id}`,
    '/upgrade',
    '/account',
    '/docs',
    '/support',
    `/support?q=${encodeURIComponent(server.adminEmail)}`,
    `/support/keys/${key.id}`,
    '/support/audit',
    '/support/leaks',
    '/support/upgrades',
    '/admin/users',
  ];
  for (const path of signedIn) assert.deepEqual(await visit(admin, path), [], path);
  // The key page's charts rendered (recharts draws SVG with inline styles).
  await admin.page.goto(`${server.baseUrl}/keys/${key.id}`, { waitUntil: 'networkidle' });
  await admin.page.locator('.recharts-surface').first().waitFor();
  assert.deepEqual(await admin.problems(), []);
  await visitor.page.context().close();
  await admin.page.context().close();
});

test('control: an injected inline event handler does not run and is reported as a violation', async () => {
  const watched = await watchedPage();
  await visit(watched, '/docs');
  await watched.page.evaluate(() =>
    document.body.insertAdjacentHTML('beforeend', '<img src="/no-such-image.png" onerror="window.injected = true">'),
  );
  await watched.page.waitForFunction(() => (window as unknown as { cspViolations: string[] }).cspViolations.length > 0);
  assert.equal(
    await watched.page.evaluate(() => (window as unknown as { injected?: boolean }).injected),
    undefined,
    'the handler did not run',
  );
  assert.match((await watched.problems()).join('\n'), /script-src/);
  await watched.page.context().close();
});
