/**
 * Reading an import file: its size limit, its format (from --format, the extension or the content),
 * and turning it into compound records (csv.ts, chemsep-import.ts). Anything that stops the import is
 * an ImportRefused with a message the operator can act on; nothing is written here.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { type ChemSepImport, readChemSepImport } from './chemsep-import.ts';
import { parseCompoundCsv } from './csv.ts';
import {
  checkContentMatches,
  decodeImportText,
  ImportRefused,
  importMaxBytes,
  looksLikeXml,
  readBoundedFile,
} from './file-checks.ts';
import type { ImportFormat, ImportRequest } from './import.ts';

export const IMPORT_FORMATS: ImportFormat[] = ['chemsep', 'csv'];

export type ImportFile = Pick<ImportRequest, 'format' | 'fileName' | 'fileHash' | 'records' | 'skipped'>;

/** Reads and parses `file`; throws ImportRefused for anything that stops the import. */
export function readImportFile(file: string, format?: ImportFormat): ImportFile {
  const fileName = path.basename(file);
  const bytes = readBoundedFile(file, fileName, importMaxBytes());
  const text = decodeImportText(bytes, fileName);
  const fileHash = createHash('sha256').update(bytes).digest('hex');
  const body = text.replace(/^\uFEFF/, '');
  const byExtension = formatOfExtension(fileName);
  const chosen = format ?? byExtension ?? (looksLikeXml(body) ? 'chemsep' : 'csv');
  checkContentMatches(
    body,
    fileName,
    chosen,
    format
      ? `--format ${format}`
      : byExtension
        ? `the ${path.extname(fileName).toLowerCase()} extension`
        : 'its content',
  );

  if (chosen === 'csv') {
    const { records, errors } = parseCompoundCsv(text);
    if (errors.length) {
      const problems = errors.map((e) => `row ${e.row}${e.column ? `, column ${e.column}` : ''}: ${e.message}`);
      throw new ImportRefused(
        `${fileName} is refused; nothing was written. ${errors.length} problem${errors.length === 1 ? '' : 's'}:`,
        problems,
      );
    }
    return { format: 'csv', fileName, fileHash, records: withinRecordLimit(records, fileName), skipped: [] };
  }
  let parsed: ChemSepImport;
  try {
    parsed = readChemSepImport(text, fileName);
  } catch (error) {
    throw new ImportRefused(`${fileName} is refused; nothing was written: ${(error as Error).message}`);
  }
  return {
    format: 'chemsep',
    fileName,
    fileHash,
    records: withinRecordLimit(parsed.records, fileName),
    skipped: parsed.skipped,
  };
}

/** One import is one transaction; a file with more compounds than this is split so each stays quick. */
const MAX_IMPORT_RECORDS = 100_000;

function withinRecordLimit<T>(records: T[], fileName: string): T[] {
  if (records.length > MAX_IMPORT_RECORDS) {
    throw new ImportRefused(
      `${fileName} holds ${records.length} compounds; one import takes at most ${MAX_IMPORT_RECORDS}. Split it into smaller files.`,
    );
  }
  return records;
}

/** The format a file's extension names (.xml, .csv), if it names one. */
function formatOfExtension(fileName: string): ImportFormat | undefined {
  const extension = path.extname(fileName).toLowerCase();
  return extension === '.xml' ? 'chemsep' : extension === '.csv' ? 'csv' : undefined;
}
