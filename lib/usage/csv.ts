/**
 * CSV cells as RFC 4180 writes them, made safe to open in a spreadsheet: a cell that starts with
 * = + - @ (or a tab or carriage return) would be read as a formula, so it gets a leading apostrophe
 * (OWASP's "CSV injection" advice); a cell with a comma, quote or line break is quoted, quotes doubled.
 */
/**
 * The UTF-8 byte-order mark a CSV file starts with: without it Excel reads the file in the system's
 * legacy code page, and "…" in a key's display form or any other non-ASCII text comes out garbled.
 * Parsers that know UTF-8 (csv-parse with bom: true, Python's utf-8-sig, LibreOffice) drop it.
 */
export const CSV_BYTE_ORDER_MARK = '\uFEFF';

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
