/**
 * What a cubic equation of state costs, measured: for every catalogue fluid with a reference equation,
 * each cubic (with the compound's Tc, Pc and ω, as service_eos_state uses them) against the reference
 * equation on a grid of reduced temperatures and pressures, the |error| of the stable phase's density and
 * fugacity coefficient binned by region. Z = p/(ρRT) at the same T and p, so its error is the density's.
 * The committed table (data/cubic-errors.json, `npm run data:cubic-errors`) is this module's output;
 * service_eos_state quotes it when a cubic answers in a region where it is poor.
 */
import { allCompounds, type Compound } from './compounds.ts';
import { CUBIC_EOS, CUBIC_EOS_IDS, type CubicEosId, type PhaseLabel, pureState } from './eos.ts';
import type { ReferenceFluid } from './helmholtz/fluid-file.ts';
import { referenceFluidByCas } from './helmholtz/fluids.ts';
import { densityAt, saturationAtTemperature, stateAt } from './helmholtz/state.ts';
import { ToolError } from './tool.ts';
import { compoundInputs } from './tools/eos-shared.ts';

export type CubicRegion = 'near_critical' | 'liquid' | 'dense_fluid' | 'gas';

/**
 * Regions by what an answer knows without a reference equation: Tr, pr and the cubic's stable phase,
 * the first that matches. Near-critical is a window around the critical point on both sides (where the
 * cubics' fixed Zc shows most); liquid is the subcritical liquid root; dense fluid is compressed beyond
 * it (T ≥ Tc, p ≥ Pc); the rest, vapour and gas-like supercritical states, is gas.
 */
export const REGIONS: Record<CubicRegion, string> = {
  near_critical: '0.9 ≤ Tr ≤ 1.1 and 0.7 ≤ pr ≤ 1.5',
  liquid: 'Tr < 1, the stable root liquid',
  dense_fluid: 'Tr ≥ 1 and pr ≥ 1',
  gas: 'the rest: vapour, and supercritical at pr < 1',
};

export function cubicRegion(tr: number, pr: number, label: PhaseLabel): CubicRegion {
  if (tr >= 0.9 && tr <= 1.1 && pr >= 0.7 && pr <= 1.5) return 'near_critical';
  if (tr < 1 && (label === 'liquid' || label === 'liquid-like')) return 'liquid';
  if (tr >= 1 && pr >= 1) return 'dense_fluid';
  return 'gas';
}

/** The grid, in T/Tc and p/Pc of the catalogue's constants (the cubics' inputs). */
export const GRID = {
  reduced_temperatures: [
    0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98, 1.01, 1.03, 1.06, 1.1, 1.2, 1.4, 1.7, 2.2,
  ],
  reduced_pressures: [0.02, 0.1, 0.3, 0.5, 0.7, 0.85, 0.95, 1.05, 1.2, 1.4, 1.7, 2.2, 3, 5],
};

/** States within this fraction of the reference saturation pressure are left out: which phase is stable there is a matter of the last percent, and the tool says so. */
const SATURATION_MARGIN = 0.02;

interface Sample {
  fluid: string;
  density: number;
  fugacityCoefficient: number;
}

/** |x/ref − 1| in %. */
const relative = (x: number, ref: number) => 100 * Math.abs(x / ref - 1);

/** The reference density (mol/m3) and φ of the stable phase at (T, p), or undefined outside its range or near saturation. */
function referencePoint(fluid: ReferenceFluid, t: number, p: number): { density: number; phi: number } | undefined {
  try {
    if (t < fluid.critical.temperature) {
      const psat = saturationAtTemperature(fluid, t).pressure;
      if (Math.abs(p / psat - 1) < SATURATION_MARGIN) return undefined;
    }
    const density = densityAt(fluid, t, p);
    return { density, phi: stateAt(fluid, t, density).fugacityCoefficient };
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Every grid state of one compound, per cubic and region. */
function compoundSamples(compound: Compound, fluid: ReferenceFluid, into: Map<string, Sample[]>): void {
  const molarMass = compound.properties.molecular_weight?.value;
  if (molarMass === undefined) return;
  for (const id of CUBIC_EOS_IDS) {
    const eos = CUBIC_EOS[id];
    let constants: ReturnType<typeof compoundInputs>['constants'];
    try {
      constants = compoundInputs(compound, eos).constants;
    } catch (error) {
      if (error instanceof ToolError) continue;
      throw error;
    }
    for (const tr of GRID.reduced_temperatures) {
      for (const pr of GRID.reduced_pressures) {
        const t = tr * constants.tc;
        const p = pr * constants.pc;
        const reference = referencePoint(fluid, t, p);
        if (!reference) continue;
        const state = pureState(eos, constants, t, p);
        const root = state.single ?? (state.stable === 'liquid' ? state.liquid! : state.vapor!);
        const key = `${id} ${cubicRegion(tr, pr, state.label)}`;
        const samples = into.get(key) ?? [];
        samples.push({
          fluid: compound.cas,
          density: relative(1 / root.molarVolume, reference.density),
          fugacityCoefficient: relative(Math.exp(root.lnPhi), reference.phi),
        });
        into.set(key, samples);
      }
    }
  }
}

interface ErrorStats {
  median_percent: number;
  p95_percent: number;
}

export interface RegionErrors {
  fluids: number;
  states: number;
  density: ErrorStats;
  fugacity_coefficient: ErrorStats;
}

export type CubicErrorTable = Record<CubicEosId, Partial<Record<CubicRegion, RegionErrors>>>;

/** The q-quantile by linear interpolation between order statistics. */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const at = q * (s.length - 1);
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
}

/** Two significant digits: what a median over fluids and states can claim. */
const twoDigits = (x: number) => Number(x.toPrecision(2));

const stats = (xs: number[]): ErrorStats => ({
  median_percent: twoDigits(quantile(xs, 0.5)),
  p95_percent: twoDigits(quantile(xs, 0.95)),
});

/** The table over the catalogue's reference fluids (or the compounds given). */
export function cubicErrorTable(compounds: readonly Compound[] = allCompounds()): CubicErrorTable {
  const samples = new Map<string, Sample[]>();
  for (const compound of compounds) {
    const fluid = referenceFluidByCas(compound.cas);
    if (fluid) compoundSamples(compound, fluid, samples);
  }
  const table = Object.fromEntries(CUBIC_EOS_IDS.map((id) => [id, {}])) as CubicErrorTable;
  for (const id of CUBIC_EOS_IDS) {
    for (const region of Object.keys(REGIONS) as CubicRegion[]) {
      const s = samples.get(`${id} ${region}`);
      if (!s?.length) continue;
      table[id][region] = {
        fluids: new Set(s.map((x) => x.fluid)).size,
        states: s.length,
        density: stats(s.map((x) => x.density)),
        fugacity_coefficient: stats(s.map((x) => x.fugacityCoefficient)),
      };
    }
  }
  return table;
}
