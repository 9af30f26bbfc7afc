/**
 * The compound catalogue at server start (server.ts): the built-in data mirrored into the table
 * (write.ts), then the imported compounds read back (read.ts) and registered with the lookup index,
 * each built-in an import overrides served no longer.
 */
import type { Db } from '../db/client.ts';
import { loadImportedCompounds } from './read.ts';
import { type BuiltinRef, registerCompounds } from './registration.ts';
import { type BuiltinSync, loadBuiltinCompounds } from './write.ts';

interface CompoundStartup {
  builtin: BuiltinSync;
  /** Imported compounds the tools now serve. */
  served: number;
  /** Imported compounds left out, each with why (unreadable, or shadowed by built-in data). */
  left: { name: string; reason: string }[];
  /** Built-in compounds not served because an imported compound overrides them (imported with --replace). */
  overridden: { builtin: BuiltinRef; by: { name: string; cas: string } }[];
}

/**
 * What the server does at start: mirror the built-in data into the table, then hand the imported
 * compounds to the lookup index (lib/chem never reads the database itself).
 */
export async function prepareCompounds(db: Db): Promise<CompoundStartup> {
  const builtin = await loadBuiltinCompounds(db);
  const { compounds, unreadable, overrides } = await loadImportedCompounds(db);
  const { registered, refused, overridden } = registerCompounds(compounds, { overrides });
  return {
    builtin,
    served: registered.length,
    overridden: overridden.map(({ builtin: b, by }) => ({
      builtin: { name: b.name, cas: b.cas },
      by: { name: by.name, cas: by.cas },
    })),
    left: [
      ...unreadable.map((u) => ({ name: u.name, reason: `${u.origin}: ${u.reason}` })),
      ...refused.map((r) => ({ name: r.compound.name, reason: r.reason })),
    ],
  };
}
