/**
 * The reference equations of state on hand, by CAS number: CoolProp's fluid files (MIT; each set of
 * coefficients cites its paper by BibTeX key), kept verbatim outside the repository in the steering
 * folder `../shared/data/coolprop/` beside the checkout (fetched data may live only there): the files of
 * CoolProp's dev/fluids/ and its CoolPropBibTeXLibrary.bib, which turns the keys into references. Read
 * once, on first use. Only the fluids of catalogue compounds are taken: those are the ones the tests
 * check against their papers and the catalogue's boiling points (CoolProp's other files, such as its
 * siloxanes, deuterium and pseudo-pure mixtures, are left unread). When the folder is absent the tools
 * answer from correlations instead, as they say in each answer.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../project-root.ts';
import { allCompounds } from '../compounds.ts';
import { readBibTeX } from './bibtex.ts';
import { type ReferenceFluid, readFluidFile } from './fluid-file.ts';

/** CoolProp's reference library, beside the fluid files. */
export const BIBTEX_FILE = 'CoolPropBibTeXLibrary.bib';

const DEFAULT_DIR = join(PROJECT_ROOT, '../shared/data/coolprop');
let configuredDir: string | undefined;
let loaded: { byCas: ReadonlyMap<string, ReferenceFluid>; skipped: readonly string[] } | undefined;

/** Sets the folder read (tests); undefined restores the default. Clears what was loaded. */
export function setReferenceFluidDir(dir: string | undefined): void {
  configuredDir = dir;
  loaded = undefined;
}

export function referenceFluidDir(): string {
  return configuredDir ?? DEFAULT_DIR;
}

function load(): NonNullable<typeof loaded> {
  const dir = referenceFluidDir();
  const byCas = new Map<string, ReferenceFluid>();
  const skipped: string[] = [];
  if (existsSync(/* turbopackIgnore: true */ join(dir, BIBTEX_FILE))) {
    const citations = readBibTeX(readFileSync(/* turbopackIgnore: true */ join(dir, BIBTEX_FILE), 'utf8'));
    const catalogue = new Set(allCompounds().map((c) => c.cas));
    for (const file of readdirSync(/* turbopackIgnore: true */ dir).sort()) {
      if (!file.endsWith('.json')) continue;
      try {
        const json = JSON.parse(readFileSync(/* turbopackIgnore: true */ join(dir, file), 'utf8'));
        if (!catalogue.has(String(json?.INFO?.CAS))) continue;
        const fluid = readFluidFile(json, citations);
        byCas.set(fluid.cas, fluid);
      } catch (error) {
        skipped.push(`${file}: ${(error as Error).message}`);
      }
    }
  }
  return { byCas, skipped };
}

/** The reference equation of state for a CAS number, if one is on hand. */
export function referenceFluidByCas(cas: string): ReferenceFluid | undefined {
  loaded ??= load();
  return loaded.byCas.get(cas);
}

/** Every reference fluid on hand, and the files that could not be used (with why). */
export function referenceFluids(): { fluids: ReferenceFluid[]; skipped: readonly string[] } {
  loaded ??= load();
  return { fluids: [...loaded.byCas.values()], skipped: loaded.skipped };
}

/** How an answer names the equation (its paper is the answer's source). */
export function referenceMethod(fluid: ReferenceFluid): string {
  return `Reference equation of state for ${fluid.name} (multiparameter Helmholtz energy, the published coefficients)`;
}
