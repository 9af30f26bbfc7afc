/**
 * The portal's layout as a person meets it, at 1280 and 390 px, with axe on every page state: a key with a
 * 96-character name keeps the keys table on the screen; the new secret's client configuration shows its
 * Authorization line in full; closing a dialog (Escape, Cancel, after success) gives the focus back to the
 * button that opened it; and the site has a favicon the browser may load under its Content-Security-Policy.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, expect, type Page } from '@playwright/test';
import { assertNoSeriousAxe } from '../test/support/axe.ts';
import { assertFitsPhoneWidth, DESKTOP, PHONE, signIn, signUp } from '../test/support/browser.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import type { TestServer } from '../test/support/test-server.ts';

let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;

before(async () => {
  ({ server, browser, close } = await startServerAndBrowser());
});
after(() => close?.());

const PASSWORD = 'correct horse battery staple';
const WIDTHS = { '1280': DESKTOP, '390': PHONE } as const;
type Width = keyof typeof WIDTHS;

/** The longest kind of name: 96 characters without a space, where a browser finds no place to break. */
const LONG_NAME = 'NightlySolventScreeningAgentOnTheSharedRunner'.repeat(3).slice(0, 96);

async function pageAt(width: Width): Promise<Page> {
  const context = await browser.newContext({ viewport: WIDTHS[width] });
  return context.newPage();
}

/** What has the keyboard focus: its tag and visible text, e.g. "BUTTON Create key". */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element ? `${element.tagName} ${(element as HTMLElement).innerText?.trim() ?? ''}`.trim() : 'none';
  });

/** Opens a dialog from the keyboard: focus on its button, then Enter. */
async function openWithKeyboard(page: Page, button: string) {
  await page.getByRole('button', { name: button, exact: true }).focus();
  await page.keyboard.press('Enter');
}

/** Creates a key through the dialog and leaves the one-time secret dialog open; returns the secret. */
async function createKeyInDialog(page: Page, name: string, opener: string): Promise<string> {
  await page.getByRole('button', { name: opener, exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Create a key' });
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Create key' }).click();
  const reveal = page.getByRole('dialog', { name: `Key "${name}" created` });
  return reveal.getByLabel(/Your new API key/).inputValue();
}

for (const width of ['1280', '390'] as const) {
  test(`at ${width} px, a key with a 96-character name: the keys table stays on the screen with every column header, and the name is shown in full`, async () => {
    const page = await pageAt(width);
    await signUp(page, server.baseUrl, `long-name-${width}@example.test`);
    assert.equal(LONG_NAME.length, 96);
    await createKeyInDialog(page, LONG_NAME, 'Create your first key');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await createKeyInDialog(page, 'laptop', 'Create key');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    const name = page.getByRole('link', { name: LONG_NAME, exact: true });
    await name.waitFor();
    const layout = await page.evaluate(() => {
      const table = document.querySelector('.keys-table')!;
      const wrap = table.closest('.table-wrap')!;
      return {
        viewport: document.documentElement.clientWidth,
        tableRight: table.getBoundingClientRect().right,
        wrapScrolls: wrap.scrollWidth > wrap.clientWidth,
        headers: [...table.querySelectorAll('thead th')].map((th) => {
          const box = th.getBoundingClientRect();
          return { text: th.textContent, left: box.left, right: box.right, width: box.width };
        }),
      };
    });
    if (width === '1280') {
      assert.ok(
        layout.tableRight <= layout.viewport,
        `the table ends at ${layout.tableRight} px of ${layout.viewport}`,
      );
      assert.equal(layout.wrapScrolls, false, 'the table does not scroll sideways inside its frame');
      assert.deepEqual(
        layout.headers.map((h) => h.text),
        ['Name', 'Key', 'Tier', 'Status', 'Expires', 'Today', 'Last used'],
      );
      for (const header of layout.headers)
        assert.ok(
          header.width > 0 && header.left >= 0 && header.right <= layout.viewport,
          `the "${header.text}" header is on the screen: ${JSON.stringify(header)}`,
        );
    } else {
      // On a phone each key is a card: the page does not scroll sideways and the name fits the card.
      await assertFitsPhoneWidth(page);
      const box = (await name.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= WIDTHS[width].width, `the name fits: ${JSON.stringify(box)}`);
    }
    assert.equal(await name.innerText(), LONG_NAME, 'the whole name is shown');
    await assertNoSeriousAxe(page, 'keys list with a long name');

    // The key's own page: the long name wraps in its heading.
    await name.click();
    await page.getByRole('heading', { name: LONG_NAME }).waitFor();
    await assertFitsPhoneWidth(page);
    await assertNoSeriousAxe(page, 'key page with a long name');
    await page.context().close();
  });

  test(`at ${width} px, the new key's MCP client configuration and curl call show the Authorization line in full`, async () => {
    const page = await pageAt(width);
    await signUp(page, server.baseUrl, `config-box-${width}@example.test`);
    const secret = await createKeyInDialog(page, 'config box', 'Create your first key');
    const reveal = page.getByRole('dialog', { name: 'Key "config box" created' });
    await assertNoSeriousAxe(page, 'the one-time secret dialog', 'dialog[open]');

    for (const [snippet, line] of [
      ['MCP client configuration', `"Authorization": "Bearer ${secret}"`],
      ['curl example', `'Authorization: Bearer ${secret}'`],
    ]) {
      const box = reveal.getByLabel(snippet).locator('pre');
      await box.scrollIntoViewIfNeeded();
      const fit = await box.evaluate((pre, wanted) => {
        const text = pre.firstChild as Text;
        const start = text.data.indexOf(wanted);
        const range = document.createRange();
        range.setStart(text, start);
        range.setEnd(text, start + wanted.length);
        const frame = pre.getBoundingClientRect();
        const lines = [...range.getClientRects()];
        return {
          found: start >= 0,
          scrollWidth: pre.scrollWidth,
          clientWidth: pre.clientWidth,
          // Every piece of the line lies inside the box, so none of it is cut off or scrolled out of view.
          inside: lines.every((r) => r.left >= frame.left - 0.5 && r.right <= frame.right + 0.5),
          onScreen: frame.left >= 0 && frame.right <= document.documentElement.clientWidth,
        };
      }, line);
      assert.ok(fit.found, `${snippet} holds ${line}`);
      assert.ok(
        fit.scrollWidth <= fit.clientWidth,
        `${snippet} does not need sideways scrolling: ${JSON.stringify(fit)}`,
      );
      assert.ok(fit.inside && fit.onScreen, `${snippet}: the Authorization line is in view: ${JSON.stringify(fit)}`);
    }
    await page.context().close();
  });

  test(`at ${width} px, closing a dialog with Escape, Cancel or after success puts the focus back on the button that opened it`, async () => {
    const page = await pageAt(width);
    const email = `focus-${width}@example.test`;
    await signUp(page, server.baseUrl, email);

    // The empty state's button: Escape, then Cancel.
    await openWithKeyboard(page, 'Create your first key');
    const form = page.getByRole('dialog', { name: 'Create a key' });
    await form.waitFor();
    await assertNoSeriousAxe(page, 'the create-key dialog', 'dialog[open]');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page), { message: 'after Escape' }).toBe('BUTTON Create your first key');
    await page.keyboard.press('Enter');
    await form.waitFor();
    await form.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page), { message: 'after Cancel' }).toBe('BUTTON Create your first key');

    // After success: the secret dialog closes onto "Create key", which took the empty state's place.
    await page.keyboard.press('Enter');
    await page.keyboard.type('focus test');
    await page.keyboard.press('Enter');
    const reveal = page.getByRole('dialog', { name: 'Key "focus test" created' });
    await reveal.getByRole('button', { name: 'I have stored it' }).focus();
    await page.keyboard.press('Enter');
    await reveal.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page), { message: 'after the new key was stored' }).toBe('BUTTON Create key');
    await assertNoSeriousAxe(page, 'keys list after creating a key');

    // The key page's confirmations: Escape and Cancel.
    await page.getByRole('link', { name: 'focus test' }).click();
    await page.waitForURL(/\/keys\/[^/]+$/);
    for (const [button, title] of [
      ['Reissue…', 'Reissue this key?'],
      ['Report as leaked…', 'Report this key as leaked?'],
      ['Disable…', 'Disable this key?'],
    ]) {
      const dialog = page.getByRole('dialog', { name: title });
      await openWithKeyboard(page, button);
      await dialog.waitFor();
      await expect
        .poll(() => focused(page), { message: `${title}: the safe choice has the focus` })
        .toBe('BUTTON Cancel');
      await assertNoSeriousAxe(page, title, 'dialog[open]');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => focused(page), { message: `${title}: after Escape` }).toBe(`BUTTON ${button}`);
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await page.keyboard.press('Enter'); // Cancel
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => focused(page), { message: `${title}: after Cancel` }).toBe(`BUTTON ${button}`);
    }

    // After the owner disables the key its Disable button is gone: the focus goes to the outcome.
    await openWithKeyboard(page, 'Disable…');
    await page.getByRole('dialog', { name: 'Disable this key?' }).getByRole('button', { name: 'Disable key' }).click();
    await page.getByText('The key is disabled: calls with it now get 401.').waitFor();
    await expect.poll(() => focused(page)).toMatch(/^DIV The key is disabled: calls with it now get 401\./);
    await assertNoSeriousAxe(page, 'key page after disabling');

    // Support: Disable swaps for Re-enable, which takes the focus; Re-enable swaps back.
    const live = server.cliJson('key', 'create', '--owner', email, '--name', 'support focus');
    const staffEmail = `staff-focus-${width}@example.test`;
    server.cliOk('user', 'create', '--email', staffEmail, '--password', PASSWORD, '--role', 'support');
    await page.context().clearCookies();
    await signIn(page, server.baseUrl, staffEmail, PASSWORD, `/support/keys/${live.id}`);
    await openWithKeyboard(page, 'Disable…');
    const disable = page.getByRole('dialog', { name: 'Disable this key?' });
    await disable.getByLabel(/^Reason/).fill('owner asked (ticket SUP-7)');
    await assertNoSeriousAxe(page, 'support disable dialog', 'dialog[open]');
    await disable.getByRole('button', { name: 'Disable key' }).click();
    await page.getByRole('status').filter({ hasText: 'Key disabled' }).waitFor();
    await page.getByRole('button', { name: 'Re-enable…' }).waitFor();
    await expect
      .poll(() => focused(page), { message: 'after disabling, on the button in its place' })
      .toBe('BUTTON Re-enable…');
    await assertNoSeriousAxe(page, 'support key page after disabling');
    await page.keyboard.press('Enter');
    const enable = page.getByRole('dialog', { name: 'Re-enable this key?' });
    await enable.getByLabel(/^Reason/).fill('false alarm (ticket SUP-7)');
    await enable.getByRole('button', { name: 'Re-enable key' }).click();
    await page.getByRole('button', { name: 'Disable…' }).waitFor();
    await expect.poll(() => focused(page), { message: 'after re-enabling' }).toBe('BUTTON Disable…');
    await page.context().close();
  });
}

test('the site has a favicon: /favicon.ico and the SVG icon are served, and a page may load its icon under its CSP', async () => {
  const page = await pageAt('1280');
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`${server.baseUrl}/`);
  const icons = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]')].map((link) => link.href),
  );
  assert.ok(icons.length > 0, 'the page names its icon');
  for (const href of [`${server.baseUrl}/favicon.ico`, ...icons]) {
    const answer = await page.request.get(href);
    assert.equal(answer.status(), 200, href);
    assert.match(answer.headers()['content-type'] ?? '', /^image\/(x-icon|vnd\.microsoft\.icon|svg\+xml)/, href);
  }
  // The page's own Content-Security-Policy lets it draw each icon (img-src).
  const drawn = await page.evaluate(async (hrefs) => {
    const sizes: number[] = [];
    for (const href of hrefs) {
      const image = new Image();
      image.src = href;
      await image.decode();
      sizes.push(image.naturalWidth);
    }
    return sizes;
  }, icons);
  assert.ok(
    drawn.every((size) => size > 0),
    `every icon drew: ${drawn.join(', ')}`,
  );
  await page.reload();
  assert.deepEqual(problems, [], 'no error in the console and no failed request (favicon included)');
  await assertNoSeriousAxe(page, 'home page');
  await page.context().close();
});
