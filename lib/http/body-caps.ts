/**
 * The one table of request-body caps: the most bytes the server reads from a request to a path.
 * server.ts enforces it on every request before anything reads the body (lib/http/body-guard.ts), so
 * Next's routes, Auth.js, server actions (which any page accepts) and paths added later are all capped;
 * the readers behind it (the /mcp handler, the leak report, the messaging-app doors) cap at the same
 * number, which matters when they run without server.ts (in-process tests).
 */
import { config } from '../config.ts';
import { LEAK_REPORT_PATH } from './cross-site.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

export interface BodyCap {
  /** An exact path, or a prefix ending in "/" that matches every path below it. */
  path: string;
  bytes: number;
  /** What to do instead, for the 413's message. */
  advice: string;
}

/**
 * Pages (and their server actions: forms of a few fields), OAuth's /authorize and unknown paths. Far above
 * what a portal form sends with its previous state, far below what could strain the heap.
 */
export const DEFAULT_BODY_CAP: BodyCap = {
  path: '/',
  bytes: 64 * KiB,
  advice: 'Forms and API calls here are a few kilobytes; send less.',
};

/** The listed paths; the first match wins, the default covers the rest. */
function capTable(mcpMaxBodyBytes: number): readonly BodyCap[] {
  return [
    {
      path: '/mcp',
      bytes: mcpMaxBodyBytes,
      advice: 'Send one JSON-RPC message with smaller arguments (the operator sets the limit: MCP_MAX_BODY_BYTES).',
    },
    // Auth.js: a CSRF token, an email, a password and a return path (each capped far below this).
    { path: '/api/auth/', bytes: 16 * KiB, advice: 'A sign-in form holds an email, a password and a return path.' },
    { path: LEAK_REPORT_PATH, bytes: 64 * KiB, advice: 'Split the secrets into several reports.' },
    // OAuth: a registration is a short JSON document; token and revocation requests are a few form fields.
    { path: '/register', bytes: 16 * KiB, advice: 'A client registration is a short JSON document.' },
    { path: '/token', bytes: 16 * KiB, advice: 'A token request holds a code or a refresh token and a few fields.' },
    { path: '/revoke', bytes: 16 * KiB, advice: 'A revocation request holds one token.' },
    // Telegram's updates: a message is at most 4096 characters, with its entities and a quoted reply.
    { path: '/api/channels/telegram', bytes: 128 * KiB, advice: 'Telegram updates are far smaller.' },
    // WeChat's messages are a few KiB of XML.
    { path: '/api/channels/wechat', bytes: 64 * KiB, advice: 'WeChat messages are far smaller.' },
    // The leaked-keys form takes pastes of up to a million characters (at most 3 MB of UTF-8).
    { path: '/support/leaks', bytes: 4 * MiB, advice: 'Paste the leaked text in parts.' },
  ];
}

/** The cap for a path (without its query) from a table; exported for tests that check the table itself. */
function capIn(table: readonly BodyCap[], path: string): BodyCap {
  for (const cap of table) {
    if (cap.path.endsWith('/') ? path.startsWith(cap.path) : path === cap.path) return cap;
  }
  return DEFAULT_BODY_CAP;
}

let table: readonly BodyCap[] | undefined;
/** The configured table (the /mcp cap is MCP_MAX_BODY_BYTES), built on first use. */
function bodyCapTable(): readonly BodyCap[] {
  table ??= capTable(config().maxBodyBytes);
  return table;
}

/** The cap that applies to a path (without its query). */
export function bodyCapFor(path: string): BodyCap {
  return capIn(bodyCapTable(), path);
}

/** "64 KiB", "1 MiB", or a plain byte count. */
export function sizeText(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}

/** The 413's message: the limit and what to do (the request's own path is not repeated: it is the caller's text). */
export function tooLargeMessage(cap: BodyCap): string {
  const where = cap === DEFAULT_BODY_CAP ? 'here' : cap.path.endsWith('/') ? `under ${cap.path}` : `to ${cap.path}`;
  return `A request body ${where} may be at most ${sizeText(cap.bytes)}; this one is larger. ${cap.advice}`;
}
