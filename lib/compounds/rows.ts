/**
 * What the Compound table's rows hold, shared by reading them (read.ts), writing them (write.ts) and
 * importing (import.ts). A row stores a lib/chem `Compound` generically (identity columns plus JSON
 * text), so new properties and correlations need no migration.
 */
import type { BuiltinRef } from './registration.ts';

/** The origin of the rows mirrored from the built-in data; an imported row's is `import:<format>:<file name>`. */
export const BUILTIN_ORIGIN = 'builtin';

export interface CompoundColumns {
  name: string;
  cas: string;
  formula: string;
  smiles: string;
  inchikey: string | null;
  synonyms: string;
  properties: string;
  correlations: string | null;
  notes: string | null;
  contentHash: string;
}

/**
 * A record imported with --replace in place of built-in compounds. Its import's report JSON keeps one
 * per overriding record (`overrides`), and the server reads them back to serve the record instead.
 */
export interface ImportOverride {
  where: string;
  name: string;
  cas: string;
  builtins: BuiltinRef[];
}
