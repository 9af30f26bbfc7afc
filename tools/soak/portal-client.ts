/**
 * A signed-in portal user over plain HTTP, as a browser would be: it signs in through Auth.js's
 * credentials endpoint (CSRF token and all), keeps the session cookie, loads pages, and calls the
 * portal's server actions the way React's client does (the `Next-Action` header naming the action, the
 * arguments encoded by React's own encodeReply). No browser, so the soak can afford a signed-in user
 * loading pages every few seconds for ten minutes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../../test/support/test-server.ts';

const require = createRequire(import.meta.url);
// The encoder of the React build Next's Turbopack server decodes with (next's own compiled copy).
const { encodeReply } = require('next/dist/compiled/react-server-dom-turbopack/client.node.js') as {
  encodeReply: (value: unknown) => Promise<string | FormData>;
};

/**
 * The id of a server action, from the build's manifest (ids are hashes that change with each build).
 * `file` is relative to the project, e.g. "app/support/keys/[id]/actions.ts".
 */
export function serverActionId(file: string, exportedName: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(
    ([, entry]) => entry.filename === file && entry.exportedName === exportedName,
  );
  if (!found)
    throw new Error(`No server action ${exportedName} in ${file} in .next/server/server-reference-manifest.json`);
  return found[0];
}

export interface PortalAnswer {
  status: number;
  text: string;
}

/** The cookies a response sets, as name → value (attributes dropped). */
function setCookies(response: Response): [string, string][] {
  return response.headers.getSetCookie().map((line) => {
    const pair = line.split(';')[0];
    const at = pair.indexOf('=');
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

export class PortalSession {
  private readonly cookies = new Map<string, string>();

  private constructor(
    readonly baseUrl: string,
    readonly email: string,
  ) {}

  /** Signs in with email and password; throws when Auth.js does not hand out a session cookie. */
  static async signIn(baseUrl: string, email: string, password: string): Promise<PortalSession> {
    const session = new PortalSession(baseUrl, email);
    const csrf = await session.request('GET', '/api/auth/csrf');
    const { csrfToken } = JSON.parse(csrf.text) as { csrfToken: string };
    const answer = await session.request('POST', '/api/auth/callback/credentials', {
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${baseUrl}/keys` }),
    });
    if (![...session.cookies.keys()].some((name) => name.endsWith('authjs.session-token'))) {
      throw new Error(`signing in as ${email} set no session cookie (HTTP ${answer.status})`);
    }
    return session;
  }

  /** One request with the session's cookies; redirects are not followed (a redirect to /signin is a finding). */
  async request(
    method: 'GET' | 'POST',
    path: string,
    init: { body?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<PortalAnswer> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '), ...init.headers },
      body: init.body,
      signal: AbortSignal.timeout(30_000),
    });
    for (const [name, value] of setCookies(response)) this.cookies.set(name, value);
    return { status: response.status, text: await response.text() };
  }

  /**
   * Calls a `useActionState` server action (arguments: previous state, form data) from the page at
   * `path`, as the page's form would. The answer is React's flight stream; callers read the action's
   * result from it.
   */
  async callAction(path: string, actionId: string, fields: Record<string, string>): Promise<PortalAnswer> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const body = await encodeReply([null, form]);
    return this.request('POST', path, {
      body,
      headers: { 'next-action': actionId, accept: 'text/x-component', origin: this.baseUrl },
    });
  }
}
