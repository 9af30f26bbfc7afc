/**
 * The one way the server writes logs: one JSON object per line, to stdout (debug, info) or stderr (warn,
 * error). A line is built with a single JSON.stringify and written with one write call, so per-request
 * lines stay cheap. Callers pass fields, never request bodies or secrets (a key is logged by its id).
 * LOG_LEVEL (default info) is the lowest level written.
 */
import { config, type LogLevel } from '../config.ts';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

let threshold: number | undefined;

/** Whether a line at this level would be written; lets hot paths skip building the fields. */
export function logEnabled(level: LogLevel): boolean {
  return RANK[level] >= (threshold ??= RANK[config().logLevel]);
}

export function log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  if (!logEnabled(level)) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n';
  (RANK[level] >= RANK.warn ? process.stderr : process.stdout).write(line);
}

/** An error as log text: the stack for our own bugs, with any credentials in URLs blanked out. */
export function errorText(error: unknown): string {
  return redactUrls(String((error as Error)?.stack ?? error));
}

/** Blanks the user:password part of URLs (postgresql://u:p@host, redis://:p@host) in a message. */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1***@');
}
