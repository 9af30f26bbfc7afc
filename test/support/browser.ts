/**
 * Browser tests drive Debian's Chromium headless shell (/usr/bin/chromium-headless-shell, package
 * chromium-headless-shell; Playwright's own browser download is not reachable here) with the flags this
 * closed network needs. It is the same engine as Chromium without the windowing and compositing a headed
 * browser needs, the build Playwright itself runs headless tests in; the browser's part of a story costs
 * about a third less CPU in it than in full Chromium. BROWSER_PATH points at another Chromium (`/usr/bin/chromium` works too).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { SIGNED_UP_MESSAGE, SIGNED_UP_NOTICE } from '../../lib/auth/sign-up-notice.ts';
import { ROOT } from './test-server.ts';

/** The two widths the portal stories check: a desktop window and a phone. */
export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
export const VIEWPORTS = [
  ['1280', DESKTOP],
  ['390', PHONE],
] as const;

export const CHROMIUM_PATH = process.env.BROWSER_PATH || '/usr/bin/chromium-headless-shell';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium-headless-shell" (or set BROWSER_PATH).`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * Signs up through the form, then signs in (sign-up itself signs nobody in: it ends on the sign-in page
 * with the same notice for a new and an existing email); leaves the page signed in on /keys.
 */
export async function signUp(page: Page, baseUrl: string, email: string, password = 'correct horse battery staple') {
  await submitSignUp(page, baseUrl, email, password);
  await page.getByRole('status').filter({ hasText: SIGNED_UP_MESSAGE }).waitFor();
  await signIn(page, baseUrl, email, password);
}

/** Fills in and sends the sign-up form; leaves the page on the sign-in page it ends on. */
export async function submitSignUp(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${baseUrl}/signin?notice=${SIGNED_UP_NOTICE}`);
}

/** Signs in through the form; leaves the page on `next` (default /keys). */
export async function signIn(page: Page, baseUrl: string, email: string, password: string, next = '/keys') {
  await page.goto(`${baseUrl}/signin?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}${next}`);
}

/** The manuals' screenshots (docs/screenshots/, shown in docs/portal.md) are retaken with UPDATE_SCREENSHOTS=1. */
const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join(ROOT, 'docs/screenshots');

/**
 * Saves a screenshot as docs/screenshots/<name>.png (name says page and width, e.g. "key-detail-1280")
 * when UPDATE_SCREENSHOTS=1: the whole page, or only the first screenful for very long pages
 * (fullPage: false), which keeps the manuals' images small. Otherwise nothing is taken: no test reads
 * a screenshot, and rendering a whole page to PNG is work the browser would do for nothing.
 */
export async function saveScreenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  if (!UPDATE_SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage });
}

/**
 * The page at phone width (390 px): fails when anything makes the page itself scroll sideways (wide
 * tables must scroll inside their own wrapper).
 */
export async function assertFitsPhoneWidth(page: Page): Promise<void> {
  const previous = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (previous) await page.setViewportSize(previous);
  if (overflow > 0) throw new Error(`${page.url()} is ${overflow} px wider than a 390 px screen`);
}
