/**
 * The one way the server writes logs: one JSON object per line, to stdout (debug, info) or stderr (warn,
 * error). A line is built with a single JSON.stringify and written with one write call, so per-request
 * lines stay cheap. Callers pass fields, never request bodies or secrets (a key is logged by its id).
 * Caller text still reaches some fields (a tool name, a compound name, an error message quoting a
 * request), so every line is checked for secret fragments here, at the one sink, and cut down when it
 * holds one: no caller has to remember. (The first-start banner that hands out the demo key and the
 * admin's password is printed by server.ts with console.log, on purpose not through here.)
 * LOG_LEVEL (default info) is the lowest level written.
 */
import { config, type LogLevel } from '../config.ts';
import { containsSecretFragment, redactSecretFragments, redactUrls } from './redact.ts';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

let threshold: number | undefined;

/** Whether a line at this level would be written; lets hot paths skip building the fields. */
export function logEnabled(level: LogLevel): boolean {
  threshold ??= RANK[config().logLevel];
  return RANK[level] >= threshold;
}

export function log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  if (!logEnabled(level)) return;
  let line = `${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`;
  // Redaction keeps a fragment's first 7 characters and adds only "…[redacted]": the JSON stays valid.
  if (containsSecretFragment(line)) line = redactSecretFragments(line);
  (RANK[level] >= RANK.warn ? process.stderr : process.stdout).write(line);
}

/** An error as log text: the stack for our own bugs, with any credentials in URLs blanked out. */
export function errorText(error: unknown): string {
  return redactUrls(String((error as Error)?.stack ?? error));
}
