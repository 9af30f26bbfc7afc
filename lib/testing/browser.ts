/**
 * Browser tests drive Debian's Chromium (/usr/bin/chromium; Playwright's own browser download is not
 * reachable here) with the flags this closed network needs. BROWSER_PATH points at another Chromium.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from '@playwright/test';

export const CHROMIUM_PATH = process.env.BROWSER_PATH || '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium" (or set BROWSER_PATH).`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** Signs up through the form; leaves the page signed in on /keys. */
export async function signUp(page: Page, baseUrl: string, email: string, password = 'correct horse battery staple') {
  await page.goto(`${baseUrl}/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${baseUrl}/keys`);
}

/** Signs in through the form; leaves the page on `next` (default /keys). */
export async function signIn(page: Page, baseUrl: string, email: string, password: string, next = '/keys') {
  await page.goto(`${baseUrl}/signin?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}${next}`);
}
