/**
 * The bundled ChemSep file's compounds that the built-in catalogue lacks (168 of its 431: acid chlorides,
 * chlorobenzenes, PAHs, glycols, amines, carbonates …), served by name, CAS number and structure after
 * the catalogue and any imports, so a name ChemSep knows answers from its measured-data fits instead of
 * from estimates. Their constants come through the same converter as `cli compounds import`
 * (./chemsep-import.ts), each citing the bundled file; their temperature correlations come from the
 * ChemSep layer (../chem/chemsep-layer.ts) by CAS number, as for every compound.
 */
import { bundledChemSepFile } from '../chem/chemsep-layer.ts';
import { allCompounds, type Compound } from '../chem/compounds.ts';
import { setBundledCompounds } from '../chem/registered-compounds.ts';
import { chemSepImportOf } from './chemsep-import.ts';

export const BUNDLED_CHEMSEP_SOURCE =
  'ChemSep 8.32 pure-component data (H. Kooijman, R. Taylor; chemsep1.xml as bundled in lib/chem/data/third-party/chemsep, Artistic License 2.0)';

/** The bundled file's servable compounds whose CAS number the built-in catalogue does not hold. */
export function bundledChemSepCompounds(): Compound[] {
  const builtin = new Set(allCompounds().map((c) => c.cas));
  return chemSepImportOf(bundledChemSepFile(), BUNDLED_CHEMSEP_SOURCE)
    .records.map((r) => r.compound)
    .filter((c) => !builtin.has(c.cas));
}

/** Hands them to the lookup index (parsing the file, about a second, if nothing has yet). Returns how many. */
export function serveBundledChemSep(): number {
  const compounds = bundledChemSepCompounds();
  setBundledCompounds(compounds);
  return compounds.length;
}
