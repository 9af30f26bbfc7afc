/**
 * What an OAuth MCP client brings to a test: a loopback redirect URI that records what the browser brings
 * back to it, and an OAuthClientProvider for the MCP SDK's client that keeps its registration, PKCE
 * verifier and tokens in memory and hands the authorization URL to the test (which opens it in a browser).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Page } from '@playwright/test';

export interface Callback {
  url: string;
  /** The next query the browser brought to the redirect URI. */
  next: () => Promise<URLSearchParams>;
  close: () => Promise<void>;
}

/** A redirect URI on 127.0.0.1 that answers "done" and records each query it receives. */
export async function startCallback(path = '/callback'): Promise<Callback> {
  const waiting: ((query: URLSearchParams) => void)[] = [];
  const arrived: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
    const next = waiting.shift();
    if (next) next(url.searchParams);
    else arrived.push(url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    next: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl?: URL;
  private information?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';

  constructor(
    readonly redirectUrl: string,
    private readonly name: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  /** A fresh state per authorization, which must come back with its answer. */
  state() {
    return randomBytes(16).toString('hex');
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  /** What the SDK calls when the server refuses them (a refused refresh drops the tokens, then it authorizes again). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.information = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The signed-in user allows the app on the consent page an authorization URL leads to (a new key by default). */
export async function allowInBrowser(page: Page, authorizationUrl: string, keyLabel?: RegExp): Promise<void> {
  await page.goto(authorizationUrl);
  await page.getByRole('heading', { name: /^Allow .* to use your chemistry tools\?$/ }).waitFor();
  if (keyLabel) await page.getByLabel(keyLabel).check();
  await page.getByRole('button', { name: 'Allow' }).click();
}

/** A PKCE pair (RFC 7636, S256): a random 43-character verifier and base64url(sha256(verifier)). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers a public client (no secret: PKCE protects its codes) at /register; its client_id. */
export async function registerPublicClient(baseUrl: string, name: string, redirectUris: string[]): Promise<string> {
  const response = await fetch(`${baseUrl}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none' }),
  });
  const body = (await response.json()) as { client_id?: string };
  if (response.status !== 201 || !body.client_id)
    throw new Error(`registering ${name} failed with ${response.status}: ${JSON.stringify(body)}`);
  return body.client_id;
}

/** A form POST to /token or /revoke: its status and JSON body ({} when empty). */
export async function postOAuthForm(
  url: string,
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

/** What a client process has printed so far on the streams given, and a way to wait for a line of it. */
export interface WatchedOutput {
  text: () => string;
  /** Resolves with the first match of `pattern` in what was printed (now or later); rejects after `ms`. */
  waitFor: (pattern: RegExp, what: string, ms?: number) => Promise<RegExpExecArray>;
}

export function watchOutput(...streams: NodeJS.ReadableStream[]): WatchedOutput {
  let text = '';
  const listeners = new Set<() => void>();
  for (const stream of streams) {
    stream.on('data', (chunk: Buffer | string) => {
      text += chunk.toString();
      for (const listener of listeners) listener();
    });
  }
  return {
    text: () => text,
    waitFor: (pattern, what, ms = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text);
          if (!match) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${what} within ${ms} ms; the client printed:\n${text}`));
        }, ms);
        listeners.add(check);
        check();
      }),
  };
}

/** A key secret longer than its display form (cf_ and four characters), and a refresh token. */
export const SECRET_PATTERNS = [/cf_[0-9A-Za-z]{9,}/g, /cfr_[0-9A-Za-z_-]{9,}/g];

/** Every key secret or refresh token in `text`. */
export function secretsIn(text: string): string[] {
  return SECRET_PATTERNS.flatMap((pattern) => text.match(pattern) ?? []);
}

/** The key secrets and refresh tokens a client stored in the files under `dir` (its token store). */
export function secretsStoredUnder(dir: string): string[] {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return [...new Set(files.flatMap((entry) => secretsIn(readFileSync(join(entry.parentPath, entry.name), 'utf8'))))];
}

/**
 * The signed-in user finds the key an app's authorization created on /keys ("<client name> (connector)"),
 * opens it, and sees `tool` among its calls.
 */
export async function connectorKeyShowsCall(page: Page, baseUrl: string, clientName: string, tool: string) {
  await page.goto(`${baseUrl}/keys`);
  await page.getByRole('link', { name: `${clientName} (connector)` }).click();
  await page.getByRole('heading', { name: 'Connected apps' }).waitFor();
  await page.getByRole('cell', { name: tool }).first().waitFor();
}
