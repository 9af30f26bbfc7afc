/**
 * The checks an import file passes before any of it is parsed: its size (refused before it is read
 * into memory), that it is text in an encoding we read (UTF-8; a ChemSep file may declare Latin-1),
 * and that its content is the format it is imported as. Each refusal says what the file is and what
 * to do; nothing is written to the database for a refused file.
 */
import fs from 'node:fs';
import { importMaxMegabytes } from '../config.ts';
import type { ImportFormat } from './import.ts';

/** The most problems printed for a refused file; the count says how many more there are. */
const MAX_PROBLEMS_SHOWN = 100;

/** The file cannot be imported; nothing was written. */
export class ImportRefused extends Error {
  readonly problems: string[];

  constructor(message: string, problems: string[] = []) {
    super(message);
    this.name = 'ImportRefused';
    this.problems = problems;
  }

  /** The message with the first problems, one per line. */
  describe(): string {
    const shown = this.problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => `  ${p}`);
    const more =
      this.problems.length > MAX_PROBLEMS_SHOWN ? [`  … and ${this.problems.length - MAX_PROBLEMS_SHOWN} more`] : [];
    return [this.message, ...shown, ...more].join('\n');
  }
}

/** The size limit in bytes: COMPOUND_IMPORT_MAX_MB megabytes (default 50). */
export function importMaxBytes(): number {
  try {
    return importMaxMegabytes() * 1024 * 1024;
  } catch (error) {
    throw new ImportRefused((error as Error).message);
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The file's bytes, read only when its size is within `maxBytes`. The read stops one byte past the
 * limit, so a file that grows after the size check is refused too, never read whole.
 */
export function readBoundedFile(file: string, fileName: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportRefused(
      `Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder, not a file' : (error as Error).message}.`,
    );
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new ImportRefused(`${file} is not a file.`);
    const tooBig = (size: string) =>
      new ImportRefused(
        `${fileName} is ${size}; imports are limited to ${megabytes(maxBytes).replace('.0 MB', ' MB')} (COMPOUND_IMPORT_MAX_MB). ` +
          `Split it into smaller files, or raise the limit, e.g. COMPOUND_IMPORT_MAX_MB=${Math.ceil(stat.size / 1024 / 1024)}.`,
      );
    if (stat.size > maxBytes) throw tooBig(megabytes(stat.size));
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) throw tooBig(`over ${megabytes(maxBytes)} (it grew while being read)`);
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) throw tooBig(`over ${megabytes(maxBytes)} (it grew while being read)`);
    }
    return buffer.subarray(0, length);
  } finally {
    fs.closeSync(fd);
  }
}

/** Signatures of files people export by mistake instead of CSV or XML. */
const BINARY_KINDS: [signature: number[], what: string][] = [
  [
    [0x50, 0x4b, 0x03, 0x04],
    'a ZIP archive (an Excel .xlsx or OpenDocument .ods workbook is one); export the sheet as CSV UTF-8',
  ],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an old Office document (Excel .xls); export the sheet as CSV UTF-8'],
  [[0x1f, 0x8b], 'gzip-compressed; decompress it first'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document; import the data as CSV'],
];

const startsWith = (bytes: Buffer, signature: number[]) => signature.every((b, i) => bytes[i] === b);

/** Byte offset and line (1-based) of the first byte sequence that is not UTF-8. */
function firstInvalidUtf8(bytes: Buffer): { offset: number; line: number } {
  // Lenient decoding turns each invalid sequence into U+FFFD; one that is really in the file is EF BF BD.
  const lenient = bytes.toString('utf8');
  let offset = 0;
  let from = 0;
  for (let at = lenient.indexOf('\uFFFD'); at >= 0; at = lenient.indexOf('\uFFFD', at + 1)) {
    offset += Buffer.byteLength(lenient.slice(from, at));
    from = at;
    if (!startsWith(bytes.subarray(offset), [0xef, 0xbf, 0xbd])) break;
  }
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return { offset, line };
}

/** The XML declaration's encoding, lower-case, or undefined. */
function declaredXmlEncoding(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 200).toString('latin1');
  return /^(?:\uFEFF|\xEF\xBB\xBF)?\s*<\?xml\b[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1].toLowerCase();
}

const LATIN1 = new Set(['iso-8859-1', 'latin1', 'latin-1', 'l1', 'windows-1252', 'cp1252']);

/** The file as text, or a refusal naming what it is instead. */
export function decodeImportText(bytes: Buffer, fileName: string): string {
  if (bytes.length === 0) throw new ImportRefused(`${fileName} is empty (0 bytes); nothing was written.`);
  for (const [signature, what] of BINARY_KINDS) {
    if (startsWith(bytes, signature)) throw new ImportRefused(`${fileName} is not a text file: it is ${what}.`);
  }
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    throw new ImportRefused(
      `${fileName} is UTF-16 text; save it as UTF-8 (in Excel: "CSV UTF-8") and import it again.`,
    );
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0)
    throw new ImportRefused(
      `${fileName} is not a text file: byte ${nul} is a NUL byte, as in binary files. Import a CSV or ChemSep XML file.`,
    );
  const declared = declaredXmlEncoding(bytes);
  if (declared && LATIN1.has(declared)) return new TextDecoder('windows-1252').decode(bytes);
  if (declared && declared !== 'utf-8' && declared !== 'utf8' && declared !== 'us-ascii' && declared !== 'ascii') {
    throw new ImportRefused(
      `${fileName} declares the encoding "${declared}"; only UTF-8 and ISO-8859-1 XML can be imported. Save it as UTF-8.`,
    );
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    if (!text.trim()) throw new ImportRefused(`${fileName} holds only blank space; nothing was written.`);
    return text;
  } catch (error) {
    if (error instanceof ImportRefused) throw error;
    const { offset, line } = firstInvalidUtf8(bytes);
    throw new ImportRefused(
      `${fileName} is not UTF-8 text: byte ${offset} (line ${line}) is not valid UTF-8. ` +
        'Save it as UTF-8 (in Excel: "CSV UTF-8"; from another encoding: iconv -f latin1 -t utf-8) and import it again.',
    );
  }
}

/** Whether the text is XML (its first character is "<"). */
export function looksLikeXml(text: string): boolean {
  return text.trimStart().startsWith('<');
}

/**
 * Refuses a file whose content is not the format it is imported as: `chosen` came from --format
 * (`how` = "--format chemsep"), else the extension ("the .csv extension"). XML must be a ChemSep
 * compound file: its root element is <compounds>.
 */
export function checkContentMatches(text: string, fileName: string, chosen: ImportFormat, how: string): void {
  const xml = looksLikeXml(text);
  if (chosen === 'csv' && xml) {
    throw new ImportRefused(
      `${fileName} is imported as CSV (${how}), but it holds XML. If it is a ChemSep file, import it with --format chemsep.`,
    );
  }
  if (chosen === 'chemsep' && !xml) {
    const first = text.trimStart().split(/\r?\n/, 1)[0].slice(0, 60);
    throw new ImportRefused(
      `${fileName} is imported as ChemSep XML (${how}), but it is not XML: it starts with "${first}". If it is CSV, import it with --format csv.`,
    );
  }
  if (chosen === 'chemsep') {
    const root = /<([A-Za-z_][\w.:-]*)/.exec(text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, ''))?.[1];
    if (root !== 'compounds') {
      throw new ImportRefused(
        `${fileName} is XML, but not a ChemSep pure-component file: its root element is <${root ?? '?'}>, not <compounds> (as in chemsep1.xml).`,
      );
    }
  }
}
