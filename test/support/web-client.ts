/**
 * A small HTTP client for portal tests that need what fetch hides or cannot do: every Set-Cookie line,
 * a self-signed certificate (HTTPS tests), any Origin header, and a cookie jar. Also signs in through
 * Auth.js's own form endpoint and calls server actions the way the browser does (React's encodeReply
 * body, the action id from Next's build manifest).
 */
import { readFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './test-server.ts';

export interface WebAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  setCookies: string[];
  text: string;
}

export interface WebRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The certificate to trust for https:// URLs (the tests' self-signed one). */
  ca?: Buffer;
}

export async function webRequest(
  url: string,
  { method = 'GET', headers = {}, body, ca }: WebRequestOptions = {},
): Promise<WebAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((done, fail) => {
    const req = send(target, { method, headers, ...(ca ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({
          status: res.statusCode!,
          headers: res.headers,
          setCookies: res.headers['set-cookie'] ?? [],
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** One cookie as a Set-Cookie line describes it. */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Map<string, string>;
}

export function parseSetCookie(line: string): SetCookie {
  const [pair, ...rest] = line.split(';');
  const at = pair.indexOf('=');
  const attributes = new Map(
    rest.map((part) => {
      const [key, ...value] = part.trim().split('=');
      return [key.toLowerCase(), value.join('=')] as [string, string];
    }),
  );
  return { name: pair.slice(0, at).trim(), value: pair.slice(at + 1).trim(), attributes };
}

/** A browser's cookie store for one site, reduced to what the tests need: set, expire, send. */
export class CookieJar {
  readonly values = new Map<string, string>();

  take(answer: Pick<WebAnswer, 'setCookies'>): this {
    for (const cookie of answer.setCookies.map(parseSetCookie)) {
      const expired =
        cookie.attributes.get('max-age') === '0' ||
        cookie.value === '' ||
        (cookie.attributes.has('expires') && Date.parse(cookie.attributes.get('expires')!) < Date.now());
      if (expired) this.values.delete(cookie.name);
      else this.values.set(cookie.name, cookie.value);
    }
    return this;
  }

  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** The Auth.js session cookie's name, if the jar holds one (authjs.session-token, with or without __Secure-). */
  sessionCookie(): string | undefined {
    return [...this.values.keys()].find((name) => /(^|-)authjs\.session-token$/.test(name));
  }
}

/** Auth.js's CSRF token and the cookie it is bound to. */
export async function csrfToken(
  baseUrl: string,
  jar: CookieJar,
  options: { ca?: Buffer; headers?: Record<string, string> } = {},
): Promise<string> {
  const answer = await webRequest(`${baseUrl}/api/auth/csrf`, {
    headers: { cookie: jar.header(), ...options.headers },
    ca: options.ca,
  });
  jar.take(answer);
  return (JSON.parse(answer.text) as { csrfToken: string }).csrfToken;
}

/**
 * Posts Auth.js's credentials form (POST /api/auth/callback/credentials). `token` is sent as the form's
 * csrfToken; pass undefined to leave it out. Returns the answer; the jar takes its cookies.
 */
export async function postCredentials(
  baseUrl: string,
  jar: CookieJar,
  fields: { email: string; password: string; token?: string },
  options: { ca?: Buffer; headers?: Record<string, string> } = {},
) {
  const form = new URLSearchParams({ email: fields.email, password: fields.password, callbackUrl: `${baseUrl}/keys` });
  if (fields.token !== undefined) form.set('csrfToken', fields.token);
  const answer = await webRequest(`${baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header(), ...options.headers },
    body: form.toString(),
    ca: options.ca,
  });
  jar.take(answer);
  return answer;
}

/** Signs in with Auth.js's own CSRF-protected form; the jar then holds the session cookie. */
export async function signInWithForm(
  baseUrl: string,
  email: string,
  password: string,
  options: { ca?: Buffer; headers?: Record<string, string> } = {},
) {
  const jar = new CookieJar();
  const token = await csrfToken(baseUrl, jar, options);
  const answer = await postCredentials(baseUrl, jar, { email, password, token }, options);
  if (!jar.sessionCookie())
    throw new Error(`sign-in as ${email} gave no session cookie (status ${answer.status}, ${answer.headers.location})`);
  return { jar, answer };
}

/**
 * Every server action of the current build, "<file>#<export>" (e.g. "app/keys/actions.ts#createKeyAction")
 * to the id the browser sends in the Next-Action header.
 */
export function serverActionIds(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  return new Map(Object.entries(manifest.node).map(([id, entry]) => [`${entry.filename}#${entry.exportedName}`, id]));
}

const reactClient = createRequire(join(ROOT, 'package.json'))(
  'next/dist/compiled/react-server-dom-turbopack/client.node',
) as {
  encodeReply: (value: unknown) => Promise<FormData | string>;
};

export interface ActionCall {
  /** The page the action is posted to, as the browser does from that page. */
  page: string;
  actionId: string;
  /** The action's arguments: (previous state, form) for the portal's form actions. */
  args: unknown[];
  jar?: CookieJar;
  /** The Origin header; the page's own origin unless given (null: none at all). */
  origin?: string | null;
  headers?: Record<string, string>;
  ca?: Buffer;
}

/** Calls a server action as the browser does; the jar (when given) takes the answer's cookies. */
export async function callServerAction(baseUrl: string, call: ActionCall): Promise<WebAnswer> {
  const encoded = await reactClient.encodeReply(call.args);
  // A Request serialises the FormData as multipart (boundary included), exactly as fetch would send it.
  const request = new Request('http://encode.invalid/', { method: 'POST', body: encoded });
  const body = Buffer.from(await request.arrayBuffer());
  const origin = call.origin === undefined ? new URL(baseUrl).origin : call.origin;
  const answer = await webRequest(baseUrl + call.page, {
    method: 'POST',
    headers: {
      accept: 'text/x-component',
      'next-action': call.actionId,
      'content-type': request.headers.get('content-type')!,
      ...(origin === null ? {} : { origin }),
      ...(call.jar ? { cookie: call.jar.header() } : {}),
      ...call.headers,
    },
    body,
    ca: call.ca,
  });
  call.jar?.take(answer);
  return answer;
}

/** A FormData from plain fields, for action arguments. */
export function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}
