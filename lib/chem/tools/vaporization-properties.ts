/**
 * The enthalpy of vaporization and liquid heat capacity service_query_compound reports at the normal
 * boiling point and at 298.15 K: from the fluid's reference equation of state (h″ − h′ and cp of the
 * saturated liquid, by phase equilibrium) where one is on hand, else from ChemSep's DIPPR fits
 * (../chemsep-layer.ts) where the temperature lies in the fit's range. Values the compound's own data
 * holds take precedence (the caller merges).
 */
import { chemsepEntry, type LayerCorrelation } from '../chemsep-layer.ts';
import type { Compound } from '../compounds.ts';
import type { ReferenceFluid } from '../helmholtz/fluid-file.ts';
import { referenceFluidByCas } from '../helmholtz/fluids.ts';
import { saturationAtTemperature, stateAt } from '../helmholtz/state.ts';
import { toMethodPrecision } from '../precision.ts';
import type { PropertyKey, PropertyValue } from '../properties.ts';

const STANDARD_TEMPERATURE = 298.15;

/** The method each value comes from is stated once per value; its temperature is the value's own field. */
const REFERENCE_METHOD = 'reference equation of state (multiparameter Helmholtz energy)';

function valueAt(fit: LayerCorrelation | undefined, t: number | undefined, scale: number, unit: string) {
  if (!fit || t === undefined || t < fit.range.min || t > fit.range.max) return undefined;
  return {
    // The fits reproduce their data to about 1 % (ΔHvap) and 1–3 % (liquid Cp).
    value: toMethodPrecision(fit.value(t) * scale, 'correlation'),
    unit,
    source: fit.source,
    method: fit.method,
    temperature: { value: t, unit: 'K' as const },
  } satisfies PropertyValue;
}

/** ΔHvap and liquid cp from the reference equation at t, if t is on its saturation line. */
function referenceValues(fluid: ReferenceFluid, t: number | undefined) {
  if (t === undefined || t < fluid.tripleTemperature || t >= fluid.critical.temperature * (1 - 1e-5)) return undefined;
  let liquid: ReturnType<typeof stateAt>;
  let vapor: ReturnType<typeof stateAt>;
  try {
    const sat = saturationAtTemperature(fluid, t);
    liquid = stateAt(fluid, t, sat.liquidDensity);
    vapor = stateAt(fluid, t, sat.vaporDensity);
  } catch (error) {
    if (error instanceof RangeError) return undefined; // the equation cannot give it there: left out, not guessed
    throw error;
  }
  const common = { source: fluid.citation, temperature: { value: t, unit: 'K' as const } };
  return {
    heat: {
      value: toMethodPrecision((vapor.enthalpy - liquid.enthalpy) / 1000, 'referenceEquation'),
      unit: 'kJ/mol',
      method: `${REFERENCE_METHOD}: h″ − h′ of the saturated phases`,
      ...common,
    },
    cp: {
      value: toMethodPrecision(liquid.cp, 'referenceEquation'),
      unit: 'J/(mol·K)',
      method: `${REFERENCE_METHOD}: cp of the saturated liquid`,
      ...common,
    },
  };
}

/** ΔHvap (kJ/mol) and liquid Cp (J/(mol·K)) at Tb and 298.15 K, where a reference equation or ChemSep's fits hold there. */
export function vaporizationProperties(compound: Compound): Partial<Record<PropertyKey, PropertyValue>> {
  const fluid = referenceFluidByCas(compound.cas);
  if (fluid) {
    const atTb = referenceValues(fluid, compound.properties.normal_boiling_point?.value);
    const at298 = referenceValues(fluid, STANDARD_TEMPERATURE);
    const entries = {
      enthalpy_of_vaporization_at_boiling_point: atTb?.heat,
      enthalpy_of_vaporization_298k: at298?.heat,
      liquid_heat_capacity_at_boiling_point: atTb?.cp,
      liquid_heat_capacity_298k: at298?.cp,
    };
    return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
  }
  const fits = chemsepEntry(compound.cas)?.correlations;
  if (!fits) return {};
  const tb = compound.properties.normal_boiling_point?.value;
  const tc = compound.properties.critical_temperature?.value ?? Infinity;
  const liquid = (t: number | undefined) => (t !== undefined && t < tc ? t : undefined);
  const entries = {
    enthalpy_of_vaporization_at_boiling_point: valueAt(fits.heat_of_vaporization, liquid(tb), 1e-3, 'kJ/mol'),
    enthalpy_of_vaporization_298k: valueAt(fits.heat_of_vaporization, liquid(STANDARD_TEMPERATURE), 1e-3, 'kJ/mol'),
    liquid_heat_capacity_at_boiling_point: valueAt(fits.liquid_cp, liquid(tb), 1, 'J/(mol·K)'),
    liquid_heat_capacity_298k: valueAt(fits.liquid_cp, liquid(STANDARD_TEMPERATURE), 1, 'J/(mol·K)'),
  };
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}
