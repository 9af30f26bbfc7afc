/**
 * The reference equations of state on hand, by CAS number: CoolProp's fluid files (MIT; each set of
 * coefficients cites its paper by BibTeX key), shipped verbatim in data/third-party/coolprop/ (fluids/
 * and CoolPropBibTeXLibrary.bib, which turns the keys into references). Read once, on first use. Only
 * the fluids of catalogue compounds are taken: those are the ones the tests check against their papers
 * and the catalogue's boiling points (CoolProp's other files, such as its siloxanes and deuterium, are
 * left unread). A pseudo-pure mixture's file (air) is read by name, on request (referenceFluidFile), and
 * kept out of this list: it has no saturation line to check. Where a fluid has no reference equation the
 * tools answer from correlations instead, as they say in each answer.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allCompounds } from '../compounds.ts';
import { layerDir } from '../third-party-data.ts';
import { readBibTeX } from './bibtex.ts';
import { type ReferenceFluid, readFluidFile } from './fluid-file.ts';

/** CoolProp's reference library, beside the fluid files. */
const BIBTEX_FILE = 'CoolPropBibTeXLibrary.bib';

/** The folder of the fluid files, inside the layer's folder. */
export const FLUIDS_FOLDER = 'fluids';

interface Loaded {
  dir: string;
  byCas: ReadonlyMap<string, ReferenceFluid>;
  skipped: readonly string[];
  /** Files read by name (referenceFluidFile), by file name; undefined when absent. */
  byFile: Map<string, { json: Record<string, unknown>; fluid: ReferenceFluid } | undefined>;
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
  return { dir, byCas, skipped, byFile: new Map() };
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

/**
 * A fluid file read by its name ("Air.json"), whether or not a catalogue compound's: its JSON (for what
 * the evaluator does not use) and the fluid. Undefined when the file or the reference library is absent.
 */
export function referenceFluidFile(file: string): { json: Record<string, unknown>; fluid: ReferenceFluid } | undefined {
  const { dir, byFile } = current();
  if (!byFile.has(file)) {
    const path = join(/* turbopackIgnore: true */ dir, FLUIDS_FOLDER, file);
    const bib = join(/* turbopackIgnore: true */ dir, BIBTEX_FILE);
    let read: { json: Record<string, unknown>; fluid: ReferenceFluid } | undefined;
    if (existsSync(/* turbopackIgnore: true */ path) && existsSync(/* turbopackIgnore: true */ bib)) {
      const json = JSON.parse(readFileSync(/* turbopackIgnore: true */ path, 'utf8'));
      read = { json, fluid: readFluidFile(json, readBibTeX(readFileSync(/* turbopackIgnore: true */ bib, 'utf8'))) };
    }
    byFile.set(file, read);
  }
  return byFile.get(file);
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
