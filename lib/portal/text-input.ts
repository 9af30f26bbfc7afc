/**
 * Free text people type into portal forms. Names, contacts and sources are one line; reasons, use
 * cases and notes may span lines. Neither may hold other control characters (NUL, escape sequences,
 * backspace…): nobody types them on purpose, they are invisible on the page, and an audit trail
 * printed in a terminal would run them. Nor may they hold an API key secret, or most of one: the text
 * is stored and shown to others (staff, the audit trail), and a pasted secret there would be a leak.
 * Such text is refused with a message rather than stored redacted, so the person sees what happened
 * and says it another way (a leak report's source is the exception: it is kept, redacted, elsewhere).
 */
import { containsSecretFragment } from '../ops/redact.ts';
import { PortalInputError } from './access.ts';

/** C0 and C1 control characters and DEL, except tab, line feed and carriage return. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: they are refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** What a one-line field must not hold on top of CONTROL. */
const LINE_BREAK = /[\t\n\r\u2028\u2029]/;

/** Why `text` does not belong in the field called `label` ("key name", "reason"), or null when it does. */
function controlCharacterProblem(text: string, label: string, multiLine = false): string | null {
  if (CONTROL.test(text))
    return `The ${label} contains an invisible control character (often from a paste out of a terminal); type it again as plain text.`;
  if (!multiLine && LINE_BREAK.test(text)) return `The ${label} must be one line: remove the line breaks and tabs.`;
  return null;
}

/** `field`, here and below: the form field the refusal is shown at (PortalInputError). */
export function refuseControlCharacters(text: string, label: string, multiLine = false, field?: string): void {
  const problem = controlCharacterProblem(text, label, multiLine);
  if (problem) throw new PortalInputError(problem, field);
}

/** Why `text` cannot be stored in the field called `label`: a control character, or a secret fragment. */
function freeTextProblem(text: string, label: string, multiLine = false): string | null {
  const problem = controlCharacterProblem(text, label, multiLine);
  if (problem) return problem;
  if (containsSecretFragment(text)) {
    return `The ${label} looks like it holds an API key secret ("cf_" and letters or digits); do not paste secrets here. If a key leaked, disable it or report it as leaked instead.`;
  }
  return null;
}

/** Refuses free text people type that others will see (names, reasons, notes, contacts). */
export function refuseFreeText(text: string, label: string, multiLine = false, field?: string): void {
  const problem = freeTextProblem(text, label, multiLine);
  if (problem) throw new PortalInputError(problem, field);
}
