/**
 * An OAuth client's name as people read it (the portal's connected apps, the audit trail). A client names
 * itself when it registers, so the name may hold anything: control characters and the characters that
 * reorder the text around them (embeddings, overrides, isolates) become spaces, runs of space one space.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: they are dropped
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g;

/** One line of plain text; "Unnamed client" when nothing visible is left. */
export function appName(name: string): string {
  return name.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim() || 'Unnamed client';
}
