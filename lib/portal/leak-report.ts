/**
 * The public leaked-key report, POST /api/keys/report-leak, in the spirit of the revocation endpoints
 * GitHub's secret-scanning partners and cloud providers run: anyone who finds ChemFlow secrets in a
 * public place posts them here, and every matching key stops working at once (lib/keys/leaks.ts).
 *
 * The answer never says which secrets were keys: every accepted report gets the same 202 body, so the
 * endpoint is no oracle for probing secrets (and whoever holds a live secret could try it on /mcp
 * anyway, where it now fails). Secrets are never logged. Reports are limited per client address
 * (across all instances in the shared mode).
 */
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { bodyCapFor, tooLargeMessage } from '../http/body-caps.ts';
import { LEAK_REPORT_PATH } from '../http/cross-site.ts';
import { readTextCapped, TOO_LARGE } from '../http/read-text-capped.ts';
import { CLIENT_IP_HEADER } from '../http/transport-security.ts';
import { disableLeakedSecrets, secretsInText } from '../keys/leaks.ts';
import { type AttemptCounter, attemptCounter } from '../limits/attempt-counter.ts';
import { log } from '../ops/log.ts';
import { containsSecretFragment } from '../ops/redact.ts';

export const MAX_REPORTED_SECRETS = 1000;
export const MAX_SOURCE_CHARS = 500;
export const LEAK_REPORT_ACCEPTED_MESSAGE = 'Thank you. Any of these that are ChemFlow keys no longer work.';
const RATE_WINDOW_MS = 60_000;

const EXPECTED_SHAPE =
  'Send {"secrets": ["cf_…", …], "source": "where they were found (optional, at most 500 characters)"}, ' +
  'or GitHub secret scanning\'s [{"token": "cf_…", "type": "…", "url": "…", "source": "…"}, …].';

/** Secrets grouped by the report text their audit events will carry. */
interface LeakReport {
  /** How many secrets the body listed (the only count the answer repeats). */
  received: number;
  sightings: Map<string, string[]>;
}

type ParsedLeakReport =
  | { ok: true; report: LeakReport }
  | { ok: false; error: 'invalid_request' | 'too_many_secrets'; message: string };

/** Free text for an audit reason: one line, no control characters, bounded. */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: they are flattened to spaces
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > MAX_SOURCE_CHARS ? `${flat.slice(0, MAX_SOURCE_CHARS)}…` : flat;
}

function invalid(message: string): ParsedLeakReport {
  return { ok: false, error: 'invalid_request', message };
}

function countProblem(count: number): ParsedLeakReport | null {
  if (count === 0) return invalid(`The report lists no secrets. ${EXPECTED_SHAPE}`);
  if (count > MAX_REPORTED_SECRETS) {
    return {
      ok: false,
      error: 'too_many_secrets',
      message: `A report holds at most ${MAX_REPORTED_SECRETS} secrets; this one has ${count}. Split it into several reports.`,
    };
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Each entry may carry text around the secret (a pasted line, "Bearer cf_…"); only well-formed keys count. */
function addSighting(sightings: Map<string, string[]>, report: string, entry: string): void {
  const found = secretsInText(entry);
  if (found.length) sightings.set(report, [...(sightings.get(report) ?? []), ...found]);
}

function parseOwnShape(body: Record<string, unknown>): ParsedLeakReport {
  const unknown = Object.keys(body).find((field) => field !== 'secrets' && field !== 'source');
  if (unknown !== undefined) {
    // A secret sent as a field name is not echoed back.
    const named = containsSecretFragment(unknown) ? 'named like a secret' : JSON.stringify(unknown.slice(0, 40));
    return invalid(`Unknown field ${named}. ${EXPECTED_SHAPE}`);
  }
  const { secrets, source } = body;
  if (!Array.isArray(secrets)) return invalid(`"secrets" must be an array of strings. ${EXPECTED_SHAPE}`);
  const problem = countProblem(secrets.length);
  if (problem) return problem;
  const notText = secrets.findIndex((s) => typeof s !== 'string');
  if (notText >= 0) return invalid(`"secrets[${notText}]" must be a string (one secret). ${EXPECTED_SHAPE}`);
  if (source !== undefined && (typeof source !== 'string' || source.length > MAX_SOURCE_CHARS)) {
    return invalid(
      `"source" must be a string of at most ${MAX_SOURCE_CHARS} characters saying where the secrets were found (a URL, say), or be left out.`,
    );
  }
  const report = source?.trim() ? `public report, found at: ${oneLine(source)}` : 'public report (no source given)';
  const sightings = new Map<string, string[]>();
  for (const secret of secrets as string[]) addSighting(sightings, report, secret);
  return { ok: true, report: { received: secrets.length, sightings } };
}

/** GitHub secret scanning's partner format; fields it may add later are ignored. */
function parseGitHubShape(items: unknown[]): ParsedLeakReport {
  const problem = countProblem(items.length);
  if (problem) return problem;
  const sightings = new Map<string, string[]>();
  for (const [index, item] of items.entries()) {
    if (!isObject(item) || typeof item.token !== 'string') {
      return invalid(`Item ${index} must be an object with a string "token". ${EXPECTED_SHAPE}`);
    }
    const described = (['type', 'url', 'source'] as const).find(
      (field) => item[field] !== undefined && typeof item[field] !== 'string',
    );
    if (described) return invalid(`Item ${index}: "${described}" must be a string when present. ${EXPECTED_SHAPE}`);
    const where = [item.url, item.source && `(${item.source})`].filter(Boolean).join(' ');
    const report = `GitHub secret scanning${where ? `, found at: ${oneLine(where as string)}` : ''}`;
    addSighting(sightings, report, item.token);
  }
  return { ok: true, report: { received: items.length, sightings } };
}

/** A parsed JSON body as a leak report, or what is wrong with it. */
export function parseLeakReport(body: unknown): ParsedLeakReport {
  if (Array.isArray(body)) return parseGitHubShape(body);
  if (isObject(body)) return parseOwnShape(body);
  return invalid(`The body must be a JSON object or array. ${EXPECTED_SHAPE}`);
}

function json(status: number, body: object, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

function refusal(status: number, error: string, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { error, message }, headers);
}

/** The answer to every method but POST. */
export function leakReportMethodNotAllowed(): Response {
  return refusal(
    405,
    'method_not_allowed',
    `Send leaked secrets with POST ${LEAK_REPORT_PATH} and a JSON body. ${EXPECTED_SHAPE}`,
    { allow: 'POST' },
  );
}

/** Sized by LEAK_REPORTS_PER_MINUTE; per process, or shared by all instances through Redis in the shared mode. */
function reportWindow(): AttemptCounter {
  return attemptCounter('leak-report', config().leakReportsPerMinute, RATE_WINDOW_MS);
}

/**
 * Answers one request to POST /api/keys/report-leak. The client address is the one server.ts stamps
 * on the request (absent, all such reporters share one allowance).
 */
export async function answerLeakReport(request: Request, db: Db, window = reportWindow()): Promise<Response> {
  const ip = request.headers.get(CLIENT_IP_HEADER) ?? undefined;
  const attempt = await window.take(ip ?? 'unknown');
  if (!attempt.taken) {
    const seconds = Math.ceil(attempt.retryAfterMs / 1000);
    return refusal(
      429,
      'rate_limit_exceeded',
      `This address may send ${window.limit} reports per minute. Wait ${seconds} s, then send the rest (up to ${MAX_REPORTED_SECRETS} secrets per report).`,
      { 'retry-after': String(seconds) },
    );
  }

  const mediaType = request.headers.get('content-type')?.split(';', 1)[0].trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return refusal(
      415,
      'unsupported_media_type',
      `Send the report as JSON with "Content-Type: application/json". ${EXPECTED_SHAPE}`,
    );
  }
  const cap = bodyCapFor(LEAK_REPORT_PATH);
  const text = await readTextCapped(request, cap.bytes, { fatal: true }).catch(() => null);
  if (text === TOO_LARGE) return refusal(413, 'payload_too_large', tooLargeMessage(cap));
  let body: unknown;
  try {
    if (text === null) throw new Error('unreadable body');
    body = JSON.parse(text);
  } catch {
    return refusal(400, 'parse_error', `The body is not valid UTF-8 JSON. ${EXPECTED_SHAPE}`);
  }
  const parsed = parseLeakReport(body);
  if (!parsed.ok) return refusal(400, parsed.error, parsed.message);

  const actor = { label: 'leak-report', ip };
  const totals = { examined: 0, matched: 0, disabled: 0 };
  try {
    for (const [report, secrets] of parsed.report.sightings) {
      const outcome = await disableLeakedSecrets(db, secrets, actor, report);
      totals.examined += outcome.examined;
      totals.matched += outcome.matched;
      totals.disabled += outcome.disabled;
    }
  } catch (error) {
    // The message names the failing query, never a secret (only keyed hashes reach the database).
    log('error', 'leak report failed', { ip, error: error instanceof Error ? error.message : String(error) });
    return refusal(
      500,
      'internal_error',
      'The report could not be fully processed. Please send it again: repeating a report is harmless.',
    );
  }
  log('info', 'leak report', { ip, received: parsed.report.received, ...totals });
  return json(202, { received: parsed.report.received, message: LEAK_REPORT_ACCEPTED_MESSAGE });
}
