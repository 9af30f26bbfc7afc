/**
 * Browser stories for the public pages: the Connect & docs page (tool catalogue from the live registry,
 * limits and error tables, snippets that really work against the server), the landing page's ways in,
 * and the friendly 404.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import type { Browser, Page } from '@playwright/test';
import { TOOL_ERROR_CODES } from '../lib/chem/error-codes.ts';
import { toolListing } from '../lib/mcp/registry.ts';
import { assertFitsPhoneWidth, saveScreenshot, signUp } from '../test/support/browser.ts';
import { toolResult } from '../test/support/mcp-answers.ts';
import { bearer, postMcp } from '../test/support/mcp-client.ts';
import { startServerAndBrowser } from '../test/support/server-and-browser.ts';
import type { TestServer } from '../test/support/test-server.ts';

let server: TestServer;
let browser: Browser;
let close: (() => Promise<void>) | undefined;

before(async () => {
  ({ server, browser, close } = await startServerAndBrowser());
});
after(() => close?.());

async function newPage(width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 800 } });
  context.setDefaultTimeout(10_000);
  return context.newPage();
}

/** The text of a snippet, found by its caption (the figure's accessible name). */
async function snippet(page: Page, caption: string): Promise<string> {
  return (await page.getByRole('figure', { name: caption }).locator('pre').textContent()) ?? '';
}

async function openTool(page: Page, name: string) {
  const tool = page.locator(`details#${name}`);
  if (!(await tool.evaluate((el) => (el as HTMLDetailsElement).open))) await tool.locator('summary').click();
  return tool;
}

test('the docs list every tool with its arguments, the limits and the errors, and the tools/call example works', async () => {
  const page = await newPage();
  await page.goto(`${server.baseUrl}/docs`);
  await page.getByRole('heading', { level: 1, name: 'Connect & docs' }).waitFor();
  await page.getByRole('link', { name: 'create a free account' }).waitFor();

  await openTool(page, 'service_query_compound');
  await saveScreenshot(page, 'docs-1280', { fullPage: false });

  await page.getByRole('heading', { name: `Tools (${toolListing.length})` }).waitFor();
  for (const tool of toolListing) {
    const details = await openTool(page, tool.name);
    const args = details.getByRole('list', { name: `Arguments of ${tool.name}` });
    for (const name of Object.keys((tool.inputSchema as { properties: object }).properties)) {
      await args.getByText(name, { exact: true }).waitFor();
    }
  }
  const required = page.locator('details#service_eos_state li', { has: page.getByText('eos', { exact: true }) });
  assert.match(
    await required.innerText(),
    /one of "reference", "peng_robinson", "srk", "redlich_kwong", "van_der_waals"/,
  );

  const limits = page.getByRole('table', { name: 'Limits per tier' });
  const free = limits.getByRole('row', { name: /^Free/ });
  assert.match(await free.innerText(), /1 call\/s\s+1,000 calls\/day/);
  const pro = limits.getByRole('row', { name: /^Pro/ });
  assert.match(await pro.innerText(), /25 calls\/s\s+100,000 calls\/day/);
  await page.getByRole('heading', { name: 'What counts as a call' }).waitFor();
  const httpErrors = page.getByRole('table', { name: 'HTTP errors' });
  for (const code of ['missing_api_key', 'invalid_api_key', 'rate_limit_exceeded', 'payload_too_large']) {
    await httpErrors.getByRole('cell', { name: code, exact: true }).waitFor();
  }
  const toolErrors = page.getByRole('table', { name: 'Tool errors' });
  for (const code of Object.keys(TOOL_ERROR_CODES)) {
    await toolErrors.getByRole('cell', { name: code, exact: true }).waitFor();
  }
  await page.getByRole('heading', { name: 'Report a leaked key' }).waitFor();
  await assertFitsPhoneWidth(page);

  // The snippets name this server's origin, and the tools/call body works with a real key.
  const toolsCall = await snippet(page, 'curl: tools/call');
  assert.ok(toolsCall.startsWith(`curl -s ${server.baseUrl}/mcp`), toolsCall);
  const body = JSON.parse(/-d '(.*)'$/s.exec(toolsCall)![1]);
  const answer = await postMcp(server.mcpUrl, body, bearer(server.demoKey));
  assert.equal(answer.status, 200);
  assert.equal(toolResult(answer).isError, false);
  assert.equal(toolResult(answer).structuredContent?.cas, '64-17-5');

  // The initialize command runs as printed, in a shell, with curl.
  const initialize = execFileSync('bash', ['-c', await snippet(page, 'curl: initialize')], { encoding: 'utf8' });
  assert.match(initialize, /^data: .*"serverInfo":\{"name":"service_mcp"/m);
  const clientJson = JSON.parse(await snippet(page, 'MCP client JSON'));
  assert.equal(clientJson.mcpServers.chemflow.url, server.mcpUrl);

  const phone = await newPage(390);
  await phone.goto(`${server.baseUrl}/docs`);
  await openTool(phone, 'service_query_compound');
  await saveScreenshot(phone, 'docs-390', { fullPage: false });
  await assertFitsPhoneWidth(phone);
  await page.context().close();
  await phone.context().close();
});

test('the home page leads to sign-up and the docs; an unknown address gives the friendly 404', async () => {
  const page = await newPage();
  await page.goto(server.baseUrl);
  await page.getByRole('heading', { level: 1, name: 'Chemistry tools for AI agents' }).waitFor();
  await page.getByText('Free: 1 call/s and 1,000 calls/day. Pro: 25 calls/s and 100,000 calls/day.').waitFor();
  for (const tool of toolListing) await page.getByRole('link', { name: tool.title, exact: true }).waitFor();
  await saveScreenshot(page, 'home-1280');
  await assertFitsPhoneWidth(page);

  await page.getByRole('link', { name: 'Sign up for a free key' }).click();
  await page.waitForURL(`${server.baseUrl}/signup`);
  await page.getByRole('button', { name: 'Create account' }).waitFor();
  await page.goBack();
  await page.getByRole('link', { name: /Read the docs/ }).click();
  await page.waitForURL(`${server.baseUrl}/docs`);
  await page.getByRole('heading', { level: 1, name: 'Connect & docs' }).waitFor();
  await page.goBack();
  await page.getByRole('link', { name: 'Formula information', exact: true }).click();
  await page.waitForURL(`${server.baseUrl}/docs#service_formula_info`);
  await page
    .getByRole('list', { name: 'Arguments of service_formula_info' })
    .getByText('formula', { exact: true })
    .waitFor();

  const missing = await page.goto(`${server.baseUrl}/no/such/page`);
  assert.equal(missing?.status(), 404);
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  await page.getByText('This page does not exist, or you do not have access to it.').waitFor();
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  await page.waitForURL(`${server.baseUrl}/`);

  const phone = await newPage(390);
  await phone.goto(server.baseUrl);
  await saveScreenshot(phone, 'home-390');
  await assertFitsPhoneWidth(phone);
  await page.context().close();
  await phone.context().close();
});

test('signed in, the home page and the docs send the developer to their keys', async () => {
  const page = await newPage();
  await signUp(page, server.baseUrl, 'docs-reader@example.test');
  await page.goto(server.baseUrl);
  await page.getByRole('link', { name: 'Go to your keys' }).click();
  await page.waitForURL(`${server.baseUrl}/keys`);
  await page.goto(`${server.baseUrl}/docs`);
  await page.getByRole('link', { name: 'your keys page' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'create a free account' }).count(), 0);
  await page.context().close();
});
