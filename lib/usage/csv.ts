/**
 * CSV cells as RFC 4180 writes them, made safe to open in a spreadsheet: a cell that starts with
 * = + - @ (or a tab or carriage return) would be read as a formula, so it gets a leading apostrophe
 * (OWASP's "CSV injection" advice); a cell with a comma, quote or line break is quoted, quotes doubled.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, CRLF-terminated as RFC 4180 has it. */
export function csvLine(cells: (string | number | null)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
