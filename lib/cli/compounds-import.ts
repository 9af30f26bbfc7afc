/**
 * `cli compounds import <file>`: the command, its help and the report it prints. Reading the file is
 * lib/compounds/import-file.ts; writing it, lib/compounds/import.ts.
 */
import { csvColumns } from '../compounds/csv.ts';
import { ImportRefused } from '../compounds/file-checks.ts';
import { type ImportFormat, type ImportReport, importCompounds } from '../compounds/import.ts';
import { IMPORT_FORMATS, type ImportFile, readImportFile } from '../compounds/import-file.ts';
import { loadBuiltinCompounds } from '../compounds/write.ts';
import { DEFAULT_IMPORT_MAX_MB } from '../config.ts';
import type { Db } from '../db/client.ts';
import { parse, text, UsageError } from './args.ts';

export const COMPOUNDS_IMPORT_HELP = `Usage: npm run --silent cli -- compounds import <file> [--format chemsep|csv] [--replace] [--dry-run] [--json]

Imports compounds into the database; the server serves them after its next start.
  --format    chemsep (ChemSep pure-component XML, e.g. chemsep1.xml) or csv; by default from the
              extension (.xml, .csv), else from the content.
  --replace   a record that collides with an earlier import replaces it; one that collides with a
              built-in compound overrides it: it is stored, listed as "overrides built-in <name>
              (<cas>)", and served in the built-in's place (its identifiers resolve to the record)
              from the server's next start. Later starts keep the override.
  --dry-run   check and report everything, write nothing.
  --json      print the report as JSON.
A record whose name, a synonym, CAS number, InChIKey or SMILES is already taken (by built-in data, an
earlier import or an earlier record of the file) is reported as a conflict and not written (with
--replace, only a collision with an earlier record of the file is). Files over
COMPOUND_IMPORT_MAX_MB megabytes (default ${DEFAULT_IMPORT_MAX_MB}) are refused, and so are files that are not UTF-8 text
(ChemSep XML may declare ISO-8859-1) or whose content is not the format they are imported as. Exit codes: 0 imported (conflicts and skipped records are listed), 1 file
refused (nothing written), 2 usage error.

CSV format: UTF-8, comma-separated, double quotes around fields that contain commas, quotes or line
breaks. The first row names the columns, in any order:
  name, cas, formula, smiles   required in every row; cas must pass its check digit, formula must parse
  inchikey                     optional, standard InChIKey
  synonyms                     optional, separated by ";"
  notes                        optional, one free-text note
  source                       the published source of the row's values; required when it has any
  <property>_<unit>            one column per property, the unit in the name with "/" written "_";
                               dimensionless properties have no unit suffix; an empty cell is unknown
  liquid_density_temperature_K the temperature liquid_density_kg_m3 holds at (required with it)
Known columns: ${csvColumns().join(', ')}.
molecular_weight is computed from the formula. Values must be in the unit the column names; a value far
outside that unit's plausible range is refused. Every problem is reported with its row and column, and
a file with any problem is refused as a whole.`;

/** The report for a person: totals, then every conflict and skipped record. */
function describeReport(report: ImportReport): string {
  const { totals } = report;
  const lines = [
    `${report.dryRun ? 'Dry run, nothing written: would import' : 'Imported'} ${totals.imported} of ${totals.records} compound${totals.records === 1 ? '' : 's'} from ${report.file} (${report.format}) as ${report.origin}.`,
    `  Imported ${totals.imported}, replaced ${totals.replaced}, conflicts ${totals.conflicts} (not written), skipped ${totals.skipped}.`,
  ];
  if (report.replaced.length) {
    lines.push(
      'Replaced earlier imports:',
      ...report.replaced.map((r) => `  ${r.name} (${r.cas}, ${r.origin}) by ${r.by}`),
    );
  }
  if (report.overrides.length) {
    lines.push(
      'Overriding built-in data (served in its place from the next start):',
      ...report.overrides.map(
        (o) =>
          `  ${o.where} ${o.name} (${o.cas}) overrides ${o.builtins.map((b) => `built-in ${b.name} (${b.cas})`).join(', ')}`,
      ),
    );
  }
  if (report.conflicts.length) {
    lines.push(
      `Conflicts, not written (${report.replace ? 'a record collides with an earlier record of the file' : '--replace replaces earlier imports and overrides built-in data'}):`,
      ...report.conflicts.map((c) => `  ${c.where} ${c.name} (${c.cas}): ${c.collisions.join('; ')}`),
    );
  }
  if (report.skipped.length)
    lines.push(
      'Skipped, not importable:',
      ...report.skipped.map((s) => `  ${s.where}${s.name ? ` ${s.name}` : ''}: ${s.reason}`),
    );
  if (!report.dryRun && totals.imported > 0) lines.push('Restart the server to serve the imported compounds.');
  return lines.join('\n');
}

export async function compoundsImport(db: Db, args: string[]) {
  const options = {
    format: { type: 'string' },
    replace: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
  } as const;
  const { values, positionals } = parse(args, options, 1, 'file to import');
  const format = text(values.format);
  if (format !== undefined && !(IMPORT_FORMATS as string[]).includes(format)) {
    throw new UsageError(`--format must be ${IMPORT_FORMATS.join(' or ')}, got "${format}".`);
  }
  let file: ImportFile;
  try {
    file = readImportFile(positionals[0], format as ImportFormat | undefined);
  } catch (error) {
    if (values.json && error instanceof ImportRefused)
      console.log(JSON.stringify({ error: 'refused', message: error.message, problems: error.problems }, null, 2));
    throw error;
  }
  // The conflict check needs the built-in rows current, even before the server has ever started.
  await loadBuiltinCompounds(db);
  const report = await importCompounds(db, {
    ...file,
    replace: Boolean(values.replace),
    dryRun: Boolean(values['dry-run']),
  });
  console.log(values.json ? JSON.stringify(report, null, 2) : describeReport(report));
}
