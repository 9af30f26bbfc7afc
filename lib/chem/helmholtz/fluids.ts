/**
 * The reference equations of state on hand, by CAS number: CoolProp's fluid files (MIT; each set of
 * coefficients cites its paper), kept unmodified outside the repository in the steering folder
 * `../shared/data/coolprop/` beside the checkout (fetched data may live only there), with
 * `citations.json` (BibTeX key → reference). Read once, on first use. When the folder is absent the
 * tools answer from correlations instead, as they say in each answer.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../project-root.ts';
import { type ReferenceFluid, readFluidFile } from './fluid-file.ts';

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
  if (existsSync(/* turbopackIgnore: true */ join(dir, 'citations.json'))) {
    const citations = JSON.parse(
      readFileSync(/* turbopackIgnore: true */ join(dir, 'citations.json'), 'utf8'),
    ) as Record<string, string>;
    for (const file of readdirSync(/* turbopackIgnore: true */ dir).sort()) {
      if (!file.endsWith('.json') || file === 'citations.json') continue;
      try {
        const fluid = readFluidFile(
          JSON.parse(readFileSync(/* turbopackIgnore: true */ join(dir, file), 'utf8')),
          citations,
        );
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
