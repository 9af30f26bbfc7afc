/**
 * Caller text (a tool name, a header, a member name, a snippet of the body) put into an answer or a
 * message: cut to a few dozen characters, with secret fragments redacted. However much a caller sends,
 * an echo of it costs the server and the answer a bounded amount, and never repeats a key.
 */
import { KEY_LENGTH } from '../keys/format.ts';
import { redactSecretFragments } from '../ops/redact.ts';

/** Enough to recognise what was sent; far less than anyone needs to see it all. */
export const CALLER_TEXT_MAX = 64;

/** `text` cut to `max` characters ("…" marks a cut), secret fragments redacted. */
export function callerText(text: string, max = CALLER_TEXT_MAX): string {
  if (text.length <= max) return redactSecretFragments(text);
  // Redacted before the cut, on a prefix long enough to hold any key that starts before the cut, so a
  // cut never leaves part of a secret too short for the pattern to recognise.
  let cut = redactSecretFragments(text.slice(0, max + KEY_LENGTH)).slice(0, max);
  // Never end on half a surrogate pair.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** callerText as a JSON string literal: quotes and control characters show as escapes, not raw. */
export function quoteCallerText(text: string, max = CALLER_TEXT_MAX): string {
  return JSON.stringify(callerText(text, max));
}
