/**
 * Air as the tools can serve it: a mixture of fixed composition described by one reference equation of
 * state, a "pseudo-pure fluid" (E. W. Lemmon, R. T. Jacobsen, S. G. Penoncello, D. G. Friend, J. Phys.
 * Chem. Ref. Data 29 (2000) 331, CoolProp's Air.json). It is not a catalogue compound: it has no formula
 * or SMILES, and no saturation line, so every tool but the three that can answer for it (service_eos_state,
 * service_ideal_gas_thermo, service_query_compound) refuses it as a mixture. Every value is the fluid
 * file's or the mixture table's (./mixture-names.ts); none is typed in here.
 */
import type { ReferenceFluid } from './helmholtz/fluid-file.ts';
import { referenceFluidFile } from './helmholtz/fluids.ts';
import { normalizeKey } from './lookup.ts';
import { componentName, findMixture, type NamedMixture } from './mixture-names.ts';
import type { PropertyValue } from './properties.ts';
import { ToolError } from './tool.ts';

/** The tools that answer for a pseudo-pure fluid, as its error messages name them. */
export const PSEUDO_PURE_TOOLS = 'service_eos_state, service_ideal_gas_thermo and service_query_compound';

export interface PseudoPureComponent {
  name: string;
  cas: string;
  mole_fraction: number;
}

export interface PseudoPureFluid {
  name: string;
  /** Its row's name in the mixture table. */
  mixture: string;
  cas: string;
  synonyms: readonly string[];
  /** The composition the equation was fitted for, as the mixture table gives it. */
  composition: { components: readonly PseudoPureComponent[]; source: string };
  fluid: ReferenceFluid;
  molecularWeight: PropertyValue;
}

/**
 * The pseudo-pure fluids on hand: CoolProp's file, the mixture table's row with the same composition, and
 * the CAS number ChemSep 8.32's chemsep1.xml gives its "Air" (pseudo-pure.test.ts checks all three).
 */
const PSEUDO_PURE = [{ name: 'air', file: 'Air.json', mixture: 'Air', cas: '132259-10-0' }] as const;

let built: { fluids: PseudoPureFluid[]; byKey: Map<string, PseudoPureFluid> } | undefined;

function build(
  entry: (typeof PSEUDO_PURE)[number],
  fluid: ReferenceFluid,
  json: Record<string, unknown>,
  mixture: NamedMixture,
): PseudoPureFluid {
  const info = json.INFO as { ALIASES?: string[] };
  // The molar mass of Lemmon et al. (2000), that of the composition the equation was fitted for (Σ x·M);
  // CoolProp keeps it in the file's viscosity block (Lemmon & Jacobsen 2004 use the same air), while its
  // EOS block has 28.96546 g/mol, the later CIPM-2007 value REFPROP moved to in 2010 (its AIR.PPF
  // history). Mass densities and speeds of sound use the paper's, so they match its tables.
  const viscosity = (json.TRANSPORT as { viscosity?: { dilute?: { molar_mass?: unknown } } })?.viscosity;
  const equationMolarMass = viscosity?.dilute?.molar_mass;
  const molarMass = typeof equationMolarMass === 'number' ? equationMolarMass : fluid.molarMass;
  const synonyms = [...new Set([mixture.name, ...mixture.synonyms, ...(info.ALIASES ?? [])])].filter(
    (s) => normalizeKey(s) !== normalizeKey(entry.name),
  );
  return {
    name: entry.name,
    mixture: mixture.name,
    cas: entry.cas,
    synonyms: [...new Map(synonyms.map((s) => [normalizeKey(s), s])).values()],
    composition: {
      components: mixture.components.map((c) => ({
        name: componentName(c),
        cas: c.cas,
        mole_fraction: c.moleFraction,
      })),
      source: mixture.source,
    },
    fluid: { ...fluid, name: entry.name, cas: entry.cas, molarMass },
    molecularWeight: {
      value: molarMass * 1000,
      unit: 'g/mol',
      source: fluid.citation,
      method: `as CoolProp's ${entry.file} gives it for the equation (its viscosity block)`,
      ...(molarMass === fluid.molarMass
        ? {}
        : {
            note: `The file's EOS block has ${Number((fluid.molarMass * 1000).toPrecision(10))} g/mol, a later value; this is the paper's.`,
          }),
    },
  };
}

function load(): NonNullable<typeof built> {
  if (!built) {
    const fluids: PseudoPureFluid[] = [];
    for (const entry of PSEUDO_PURE) {
      const file = referenceFluidFile(entry.file);
      const mixture = findMixture(entry.mixture);
      if (file?.fluid.pseudoPure && mixture) fluids.push(build(entry, file.fluid, file.json, mixture));
    }
    const byKey = new Map<string, PseudoPureFluid>();
    for (const f of fluids) for (const key of [f.name, f.cas, ...f.synonyms]) byKey.set(normalizeKey(key), f);
    built = { fluids, byKey };
  }
  return built;
}

/** The pseudo-pure fluid `query` names (name, synonym or CAS number), if any is on hand. */
export function findPseudoPure(query: string): PseudoPureFluid | undefined {
  return load().byKey.get(normalizeKey(query));
}

/** The compound part of an answer about a pseudo-pure fluid: no formula; its composition instead. */
export function pseudoPureSummary(air: PseudoPureFluid) {
  return {
    name: air.name,
    cas: air.cas,
    composition: air.composition.components.map(({ name, mole_fraction }) => ({ name, mole_fraction })),
  };
}

/** The refusal of a cubic equation (or another method) for a pseudo-pure fluid, saying what to use. */
export function pseudoPureRefusal(air: PseudoPureFluid, what: string): ToolError {
  const parts = air.composition.components.map((c) => `${c.name} ${c.mole_fraction}`).join(', ');
  return new ToolError(
    'is_mixture',
    `${air.name} is a mixture (${parts}, mole fractions), so ${what}. Use its reference equation (eos "reference", Lemmon et al. 2000), or pass these components to service_mixture_properties.`,
    { compound: air.name, components: air.composition.components },
  );
}
