/**
 * The reference equations of state on hand, by CAS number: CoolProp's fluid files (MIT; each set of
 * coefficients cites its paper by BibTeX key), shipped verbatim in data/third-party/coolprop/ (fluids/
 * and CoolPropBibTeXLibrary.bib, which turns the keys into references). Read once, on first use. Only
 * the fluids of catalogue compounds are taken: those are the ones the tests check against their papers
 * and the catalogue's boiling points (CoolProp's other files, such as its siloxanes, deuterium and
 * pseudo-pure mixtures, are left unread). Where a fluid has no reference equation the tools answer from
 * correlations instead, as they say in each answer.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allCompounds } from '../compounds.ts';
import { layerDir } from '../third-party-data.ts';
import { readBibTeX } from './bibtex.ts';
import { type ReferenceFluid, readFluidFile } from './fluid-file.ts';

/** CoolProp's reference library, beside the fluid files. */
export const BIBTEX_FILE = 'CoolPropBibTeXLibrary.bib';

/** The folder of the fluid files, inside the layer's folder. */
export const FLUIDS_FOLDER = 'fluids';

interface Loaded {
  dir: string;
  byCas: ReadonlyMap<string, ReferenceFluid>;
  skipped: readonly string[];
}
let loaded: Loaded | undefined;

/** The layer's folder (data/third-party/coolprop, or CHEM_DATA_DIR's). */
export function referenceFluidDir(): string {
  return layerDir('coolprop');
}

function load(dir: string): Loaded {
  const byCas = new Map<string, ReferenceFluid>();
  const skipped: string[] = [];
  const fluidsDir = join(/* turbopackIgnore: true */ dir, FLUIDS_FOLDER);
  if (existsSync(/* turbopackIgnore: true */ join(dir, BIBTEX_FILE))) {
    const citations = readBibTeX(readFileSync(/* turbopackIgnore: true */ join(dir, BIBTEX_FILE), 'utf8'));
    const catalogue = new Set(allCompounds().map((c) => c.cas));
    for (const file of readdirSync(/* turbopackIgnore: true */ fluidsDir).sort()) {
      if (!file.endsWith('.json')) continue;
      try {
        const json = JSON.parse(readFileSync(/* turbopackIgnore: true */ join(fluidsDir, file), 'utf8'));
        if (!catalogue.has(String(json?.INFO?.CAS))) continue;
        const fluid = readFluidFile(json, citations);
        byCas.set(fluid.cas, fluid);
      } catch (error) {
        skipped.push(`${file}: ${(error as Error).message}`);
      }
    }
  }
  return { dir, byCas, skipped };
}

/** What is loaded from the layer's current folder, read on first use (and again if the folder changes). */
function current(): Loaded {
  const dir = referenceFluidDir();
  if (loaded?.dir !== dir) loaded = load(dir);
  return loaded;
}

/** The reference equation of state for a CAS number, if one is on hand. */
export function referenceFluidByCas(cas: string): ReferenceFluid | undefined {
  return current().byCas.get(cas);
}

/** Every reference fluid on hand, and the files that could not be used (with why). */
export function referenceFluids(): { fluids: ReferenceFluid[]; skipped: readonly string[] } {
  const { byCas, skipped } = current();
  return { fluids: [...byCas.values()], skipped };
}

/** How an answer names the equation (its paper is the answer's source). */
export function referenceMethod(fluid: ReferenceFluid): string {
  return `Reference equation of state for ${fluid.name} (multiparameter Helmholtz energy, the published coefficients)`;
}
