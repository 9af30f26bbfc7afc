/**
 * What every browser story needs: the production server on a fresh database (test/support/test-server.ts) and
 * a headless Chromium (test/support/browser.ts), closed together.
 */
import type { TestContext } from 'node:test';
import type { Browser } from '@playwright/test';
import { launchBrowser } from './browser.ts';
import { type EnvOverrides, startTestServer, type TestServer } from './test-server.ts';

export interface ServerAndBrowser {
  server: TestServer;
  browser: Browser;
  close: () => Promise<void>;
}

/** `env`: the server's settings beyond a fresh database's (a messaging app's token…). */
export async function startServerAndBrowser(env: EnvOverrides = {}): Promise<ServerAndBrowser> {
  const server = await startTestServer(env);
  try {
    const browser = await launchBrowser();
    return {
      server,
      browser,
      close: async () => {
        await browser.close();
        await server.stop();
      },
    };
  } catch (error) {
    // No browser, no story: the server must not outlive the failed setup.
    await server.stop();
    throw error;
  }
}

/** For stories that need a database of their own: closed when the test ends. */
export async function withServerAndBrowser(
  t: Pick<TestContext, 'after'>,
  env: EnvOverrides = {},
): Promise<ServerAndBrowser> {
  const started = await startServerAndBrowser(env);
  t.after(() => started.close());
  return started;
}
