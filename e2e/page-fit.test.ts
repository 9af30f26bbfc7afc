/**
 * Every page state of the portal holds the longest values people really enter, at 1280 and 390 px: a
 * 100-character key name without a space, a 254-character email, a leak report's URL, reasons and notes
 * at their maximum length, a follower's id. In each state the page does not scroll sideways, every open
 * dialog lies inside the viewport with nothing in it cut off (the one-time secret above all), emails of an
 * ordinary length are never broken mid-word, tables that promise it show every column on the screen, and
 * axe finds nothing serious. A new page or dialog is one more row in STATES.
 */
// test-isolation: process (bind codes are digests under the server's key-hash secret, which lib/keys/hash.ts reads once per process)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { Role } from '../lib/auth/roles.ts';
import { createBindCode, redeemBindCode } from '../lib/channels/bindings.ts';
import { createDb, type Db } from '../lib/db/client.ts';
import { generateKey } from '../lib/keys/format.ts';
import { disableKey } from '../lib/keys/store.ts';
import { actorOf, type Viewer } from '../lib/portal/access.ts';
import { declineUpgrade, requestUpgrade } from '../lib/portal/upgrades.ts';
import { assertNoSeriousAxe } from '../test/support/axe.ts';
import { signIn, VIEWPORTS } from '../test/support/browser.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import type { TestServer } from '../test/support/test-server.ts';

const PASSWORD = 'correct horse battery staple';

/** Labels of a domain name are at most 63 characters; the whole address at most 254. */
const LONG_EMAIL = `${'solvent.screening.pipeline.owner.for.the.process.design.team'.padEnd(64, 'x')}@${[
  'a'.repeat(61),
  'b'.repeat(61),
  'c'.repeat(60),
].join('.')}.test`;
/** Emails as most people have them: there is room for them on one line at either width. */
const STAFF_EMAIL = 'grace.hopper@example.test';
const ADMIN_EMAIL = 'root.operator@example.test';
const ORDINARY_EMAILS = [STAFF_EMAIL, ADMIN_EMAIL];

/** A key name at the limit (100), with no place for the browser to break it. */
const LONG_NAME = 'NightlySolventScreeningAgentOnTheSharedRunner'.repeat(3).slice(0, 100);
const nameEndingWith = (suffix: string) => `${LONG_NAME.slice(0, 100 - suffix.length)}${suffix}`;
const LEAK_URL = `https://gist.github.com/solvent-screening-bot/${'3f9c0d6a1b2e4f5a8c7d9e0b'.repeat(3)}/raw/notebook.ipynb`;
const SUPPORT_REASON =
  `Secret found in a public notebook at ${LEAK_URL}; ${'the owner was told by email and asked to rotate it. '.repeat(9)}`.slice(
    0,
    500,
  );
const LONG_NOTE = `Declined: see ${LEAK_URL}?${'page=2&'.repeat(240)}and write again once the quota is needed.`.slice(
  0,
  2000,
);
const LONG_USE_CASE = `We screen solvents nightly, results at ${LEAK_URL} ${'and more '.repeat(200)}`.slice(0, 2000);
const LONG_CONTACT = `on-call-rotation-${'x'.repeat(160)}@example.test`.slice(0, 200);
const OPEN_ID = 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o';
const TELEGRAM_ID = '7261945830123456';

let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;
let db: Db;

/** Ids of the seeded keys, by the state they are in. */
const ids: Record<string, string> = {};
/** The consent page of a new authorization request by an app with a long name (from the real /authorize). */
let consentPath: () => Promise<string>;
/** A redirect address as long as real ones get, on a host name of the longest label. */
const LONG_REDIRECT = `https://${'connector-callbacks'.padEnd(63, 'x')}.example/api/mcp/auth_callback/${'7f3a'.repeat(16)}`;

type Person = 'visitor' | Role;
type Width = (typeof VIEWPORTS)[number][0];

interface PageState {
  name: string;
  as: Person;
  path: (width: Width) => string;
  /** Brings the loaded page into the state: opens the dialog, fills the field. */
  enter?: (page: Page) => Promise<void>;
  /** Its tables show every column on the screen (as cards on a phone), not scrolled inside their box. */
  wholeTables?: boolean;
}

const click = (page: Page, button: string) => page.getByRole('button', { name: button, exact: true }).click();
const dialogNamed = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name }).waitFor();

const STATES: PageState[] = [
  { name: 'home', as: 'visitor', path: () => '/' },
  { name: 'sign in', as: 'visitor', path: () => '/signin' },
  { name: 'sign up', as: 'visitor', path: () => '/signup' },
  { name: 'docs', as: 'visitor', path: () => '/docs' },
  { name: 'a missing page', as: 'visitor', path: () => '/no-such-page' },
  {
    name: 'keys: active, replaced, disabled, leaked, expired',
    as: 'developer',
    path: () => '/keys',
    wholeTables: true,
  },
  {
    name: 'keys: the create dialog with a name at the limit',
    as: 'developer',
    path: () => '/keys',
    enter: async (page) => {
      await click(page, 'Create key');
      await page.getByRole('dialog', { name: 'Create a key' }).getByLabel('Name').fill(LONG_NAME);
    },
  },
  {
    name: 'keys: the one-time secret dialog',
    as: 'developer',
    path: () => '/keys',
    enter: async (page) => {
      await click(page, 'Create key');
      const form = page.getByRole('dialog', { name: 'Create a key' });
      await form.getByLabel('Name').fill(LONG_NAME);
      await form.getByRole('button', { name: 'Create key' }).click();
      await dialogNamed(page, `Key "${LONG_NAME}" created`);
    },
  },
  { name: 'key: active, with usage', as: 'developer', path: () => `/keys/${ids.active}` },
  { name: 'key: replaced', as: 'developer', path: () => `/keys/${ids.replaced}` },
  { name: 'key: disabled by support', as: 'developer', path: () => `/keys/${ids.disabled}` },
  { name: 'key: leaked', as: 'developer', path: () => `/keys/${ids.leaked}` },
  { name: 'key: expired', as: 'developer', path: () => `/keys/${ids.expired}` },
  ...(
    [
      ['Reissue…', 'Reissue this key?'],
      ['Disable…', 'Disable this key?'],
      ['Report as leaked…', 'Report this key as leaked?'],
    ] as const
  ).map(
    ([button, title]): PageState => ({
      name: `key: the "${title}" dialog`,
      as: 'developer',
      path: () => `/keys/${ids.active}`,
      enter: async (page) => {
        await click(page, button);
        await dialogNamed(page, title);
      },
    }),
  ),
  {
    name: 'key: the reissued secret dialog',
    as: 'developer',
    path: (width) => `/keys/${ids[`reissue-${width}`]}`,
    enter: async (page) => {
      await click(page, 'Reissue…');
      await page
        .getByRole('dialog', { name: 'Reissue this key?' })
        .getByRole('button', { name: 'Reissue key' })
        .click();
      await dialogNamed(page, 'Key reissued: your new secret');
    },
  },
  ...[7, 30, 90].map(
    (days): PageState => ({
      name: `usage, ${days} days`,
      as: 'developer',
      path: () => `/usage?range=${days}`,
      wholeTables: true,
    }),
  ),
  {
    name: 'key: the "Disconnect this app?" dialog for an app with a long name',
    as: 'developer',
    path: () => `/keys/${ids.active}`,
    enter: async (page) => {
      await page.getByRole('button', { name: 'Disconnect…' }).first().click();
      await dialogNamed(page, 'Disconnect this app?');
    },
  },
  {
    name: 'OAuth consent: an app with a long name and redirect address',
    as: 'developer',
    path: () => '/keys',
    // A fresh request each time: one lasts ten minutes, and the whole file may take longer.
    enter: async (page) => {
      await page.goto(server.baseUrl + (await consentPath()));
      await page.getByRole('heading', { name: /^Allow .* to use your chemistry tools\?$/ }).waitFor();
    },
  },
  { name: 'account, with bound followers', as: 'developer', path: () => '/account' },
  {
    name: 'account: the unbind dialog',
    as: 'developer',
    path: () => '/account',
    enter: async (page) => {
      await page.getByRole('button', { name: 'Unbind…' }).first().click();
      await dialogNamed(page, /^Unbind this/);
    },
  },
  { name: 'upgrade, with requests', as: 'developer', path: () => '/upgrade' },
  { name: 'docs, signed in', as: 'developer', path: () => '/docs' },
  { name: 'support search', as: 'support', path: () => `/support?q=${encodeURIComponent(LONG_EMAIL)}` },
  { name: 'support: a disabled key', as: 'support', path: () => `/support/keys/${ids.disabled}` },
  {
    name: 'support: the disable dialog with a long reason',
    as: 'support',
    path: () => `/support/keys/${ids.active}`,
    enter: async (page) => {
      await click(page, 'Disable…');
      await page
        .getByRole('dialog', { name: 'Disable this key?' })
        .getByLabel(/^Reason/)
        .fill(SUPPORT_REASON);
    },
  },
  {
    name: 'support: the re-enable dialog',
    as: 'support',
    path: () => `/support/keys/${ids.disabled}`,
    enter: async (page) => {
      await click(page, 'Re-enable…');
      await page
        .getByRole('dialog', { name: 'Re-enable this key?' })
        .getByLabel(/^Reason/)
        .fill(SUPPORT_REASON);
    },
  },
  { name: 'support: leaks', as: 'support', path: () => '/support/leaks' },
  {
    name: 'support: the outcome of a leak report, each secret on its line',
    as: 'support',
    path: () => '/support/leaks',
    enter: async (page) => {
      // Secrets of no key: the outcome lists them without disabling a key the later states show.
      const unknown = [generateKey(), generateKey(), generateKey()];
      await page.getByLabel(/^Text with leaked secrets/).fill(`Found in ${LEAK_URL}: ${unknown.join(' ')}`);
      await page.getByLabel(/^Where were they found/).fill(LEAK_URL.slice(0, 300));
      await page.getByLabel(/Disable every active key/).check();
      await click(page, 'Disable leaked keys');
      await page.getByRole('heading', { name: 'Outcome' }).waitFor();
    },
  },
  { name: 'support: audit', as: 'support', path: () => '/support/audit' },
  { name: 'support: upgrades', as: 'support', path: () => '/support/upgrades' },
  { name: 'admin: users', as: 'admin', path: () => '/admin/users' },
  {
    name: 'admin: the change-role dialog for a long email',
    as: 'admin',
    path: () => '/admin/users',
    enter: async (page) => {
      await page
        .getByRole('row', { name: new RegExp(`^${LONG_EMAIL.slice(0, 40)}`) })
        .getByRole('button', { name: 'Change role…' })
        .click();
      await dialogNamed(page, `Change the role of ${LONG_EMAIL}`);
    },
  },
];

/** What a page state must satisfy, measured in the page; the problems found, one line each. */
async function layoutProblems(page: Page, ordinaryEmails: string[], wholeTables: boolean): Promise<string[]> {
  return page.evaluate(
    ({ ordinaryEmails, wholeTables }) => {
      // Each problem with the element it is about (no helper functions here: the page runs this alone).
      const problems: Array<[Element | null, string]> = [];
      const width = window.innerWidth;
      const height = window.innerHeight;
      const root = document.documentElement;
      if (root.scrollWidth > width) problems.push([null, `the page is ${root.scrollWidth} px wide`]);

      for (const dialog of document.querySelectorAll('dialog[open]')) {
        const box = dialog.getBoundingClientRect();
        if (box.left < 0 || box.top < 0 || box.right > width || box.bottom > height)
          problems.push([dialog, `spans ${JSON.stringify(box)} of ${width}×${height}`]);
        // The secret, its configuration and everything else in the dialog show in full, without sideways scrolling.
        for (const element of [dialog, ...dialog.querySelectorAll('textarea, pre, p, li, h2, label, dd')])
          if (element.scrollWidth > element.clientWidth + 1)
            problems.push([element, `in a dialog hides ${element.scrollWidth - element.clientWidth} px`]);
        // A secret shown once (a read-only field) shows all its lines.
        for (const field of dialog.querySelectorAll('textarea[readonly]'))
          if (field.scrollHeight > field.clientHeight + 1)
            problems.push([field, `hides ${field.scrollHeight - field.clientHeight} px of its lines`]);
      }

      // An email that fits on a line is never broken inside it.
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const email of ordinaryEmails) {
          const start = text.indexOf(email);
          if (start < 0) continue;
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, start + email.length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) problems.push([node.parentElement, `breaks "${email}" over ${tops.size} lines`]);
        }
      }

      // Column headers a card layout hides visually (inside a 1 px box) are left out.
      if (wholeTables)
        for (const cell of document.querySelectorAll(
          'table tbody > tr > *, table tfoot > tr > *, table thead > tr > *',
        )) {
          const box = cell.getBoundingClientRect();
          const frame = cell.closest('table')?.parentElement?.getBoundingClientRect();
          const headers = cell.closest('thead')?.getBoundingClientRect();
          if (box.width === 0 || !frame || (headers && headers.width <= 1)) continue;
          if (box.left < 0 || box.right > Math.min(width, frame.right) + 1)
            problems.push([cell, `is off the screen (${Math.round(box.left)}–${Math.round(box.right)} px)`]);
        }
      // The first few problems say enough; a table off the screen would otherwise list every cell.
      return problems
        .slice(0, 12)
        .map(([element, problem]) =>
          element
            ? `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}" ${problem}`
            : problem,
        );
    },
    { ordinaryEmails, wholeTables },
  );
}

/**
 * An app with a name at the limit, registered as clients register: how to reach its consent page (/authorize),
 * and a connection on the active key, written as a row (the browser flow is e2e/oauth-clients.test.ts).
 */
async function seedOAuthApp(keyId: string, userId: string): Promise<() => Promise<string>> {
  const registered = await fetch(`${server.baseUrl}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: LONG_NAME,
      redirect_uris: [LONG_REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
  });
  assert.equal(registered.status, 201, await registered.clone().text());
  const { client_id } = (await registered.json()) as { client_id: string };
  const authorize = new URL(`${server.baseUrl}/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id,
    redirect_uri: LONG_REDIRECT,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'page-fit',
  }))
    authorize.searchParams.set(name, value);
  await db.oAuthConnection.create({
    data: {
      clientId: client_id,
      keyId,
      userId,
      resource: `${server.baseUrl}/mcp`,
      refreshHash: `page-fit-${client_id}`,
      refreshExpiresAt: new Date(Date.now() + 86_400_000),
      lastRefreshedAt: new Date(),
    },
  });
  return async () => {
    const toConsent = await fetch(authorize, { redirect: 'manual' });
    assert.equal(toConsent.status, 302, await toConsent.text());
    return toConsent.headers.get('location') ?? '';
  };
}

/** Where the seeded values come from: the CLI, the public leak report, /mcp calls and the services. */
async function seed() {
  server.cliOk('user', 'create', '--email', LONG_EMAIL, '--password', PASSWORD);
  server.cliOk('user', 'create', '--email', STAFF_EMAIL, '--password', PASSWORD, '--role', 'support');
  server.cliOk('user', 'create', '--email', ADMIN_EMAIL, '--password', PASSWORD, '--role', 'admin');
  await db.user.update({ where: { email: LONG_EMAIL }, data: { name: LONG_NAME } });
  const key = (suffix: string, ...options: string[]) =>
    server.cliJson('key', 'create', '--owner', LONG_EMAIL, '--name', nameEndingWith(suffix), ...options);

  const active = key('-active');
  const replaced = key('-replaced');
  const disabled = key('-disabled');
  const leaked = key('-leaked');
  const expired = key('-expired');
  Object.assign(ids, {
    active: active.id,
    replaced: replaced.id,
    disabled: disabled.id,
    leaked: leaked.id,
    expired: expired.id,
  });
  for (const [width] of VIEWPORTS) ids[`reissue-${width}`] = key(`-reissue-${width}`).id;

  server.cliJson('key', 'reissue', replaced.id, '--grace', '7d');
  await db.apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 86_400_000) } });
  const report = await fetch(`${server.baseUrl}/api/keys/report-leak`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secrets: [leaked.key], source: `posted at ${LEAK_URL}` }),
  });
  assert.equal(report.status, 202, await report.text());

  // Calls with each key in its state, then counts in the millions on the days before, so numbers are wide.
  for (const secret of [active.key, disabled.key, leaked.key])
    await postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'ethanol' }), bearer(secret));
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  for (const keyId of [active.id, disabled.id])
    await db.dailyUsage.create({
      data: {
        keyId,
        day: yesterday,
        tool: 'service_convert_units',
        successes: 12_345_678,
        failures: 234_567,
        rateLimited: 98_765,
      },
    });

  const owner = await db.user.findUniqueOrThrow({ where: { email: LONG_EMAIL } });
  consentPath = await seedOAuthApp(active.id, owner.id);
  const staff = await db.user.findUniqueOrThrow({ where: { email: STAFF_EMAIL } });
  const viewer = (user: typeof owner): Viewer => ({ ...user, role: user.role as Role });
  await disableKey(db, {
    keyId: disabled.id,
    reason: SUPPORT_REASON,
    actor: actorOf(viewer(staff), '2001:db8:85a3:8d3:1319:8a2e:370:7348'),
    kind: 'support',
  });
  const ask = (keyId: string) =>
    requestUpgrade(db, viewer(owner), {
      keyId,
      useCase: LONG_USE_CASE,
      expectedDailyCalls: 999_999_999,
      contact: LONG_CONTACT,
    });
  const declined = await ask(active.id);
  await declineUpgrade(db, viewer(staff), declined.id, LONG_NOTE);
  await ask(active.id);

  for (const follower of [
    { channel: 'wechat', id: OPEN_ID },
    { channel: 'telegram', id: TELEGRAM_ID },
  ] as const) {
    const { code } = await createBindCode(db, owner.id);
    assert.equal((await redeemBindCode(db, follower, code)).kind, 'bound');
  }
}

const sessions = new Map<string, BrowserContext>();

/** One browser context per person and width, signed in once. */
async function contextFor(
  as: Person,
  width: Width,
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  const id = `${as}-${width}`;
  const existing = sessions.get(id);
  if (existing) return existing;
  const context = await browser.newContext({ viewport });
  const email = { visitor: '', developer: LONG_EMAIL, support: STAFF_EMAIL, admin: ADMIN_EMAIL }[as];
  if (email) await signIn(await context.newPage(), server.baseUrl, email, PASSWORD);
  sessions.set(id, context);
  return context;
}

before(async () => {
  ({ server, browser, close } = await startServerAndBrowser({
    WECHAT_TOKEN: 'chemflowtoken',
    TELEGRAM_BOT_TOKEN: '123456:e2e-telegram-token',
    TELEGRAM_WEBHOOK_SECRET: 'e2e_webhook_secret',
  }));
  // Bind codes are digests under the server's key-hash secret, as the chat's side computes them.
  process.env.KEY_HASH_SECRET_FILE = server.env.KEY_HASH_SECRET_FILE;
  db = createDb(server.env.DATABASE_URL!);
  await seed();
});
after(async () => {
  await db?.$disconnect();
  await close?.();
});

for (const [width, viewport] of VIEWPORTS)
  for (const state of STATES)
    test(`at ${width} px, ${state.name}: nothing overflows, dialogs fit, axe finds nothing serious`, async () => {
      const context = await contextFor(state.as, width, viewport);
      const page = await context.newPage();
      try {
        await page.goto(`${server.baseUrl}${state.path(width)}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await state.enter?.(page);
        assert.deepEqual(await layoutProblems(page, ORDINARY_EMAILS, state.wholeTables ?? false), [], state.name);
        await assertNoSeriousAxe(page, `${state.name} at ${width} px`);
      } finally {
        await page.close();
      }
    });
