/** ChemSep's temperature-dependent equations evaluated, for tests that cross-check our data against ChemSep's. */
import type { ChemSepEquation } from '../../lib/chem/chemsep-xml.ts';
import { dipprValue, isDipprForm } from '../../lib/chem/dippr.ts';

/**
 * The first of ChemSep's equations (by element name) in the wanted unit whose range holds t, evaluated
 * there with the product's own forms (lib/chem/dippr.ts; eq 106 is left out: it needs Tc).
 */
export function chemSepAt(
  equations: Record<string, ChemSepEquation>,
  tags: string[],
  units: string,
  t: number,
): { value: number; tag: string; eqno: number } | undefined {
  for (const tag of tags) {
    const equation = equations[tag];
    if (!equation || equation.units !== units || equation.tmin === undefined || equation.tmax === undefined) continue;
    if (t < equation.tmin || t > equation.tmax || !isDipprForm(equation.eqno) || equation.eqno === 106) continue;
    const value = dipprValue({ form: equation.eqno, coefficients: equation.coefficients }, t);
    if (Number.isFinite(value)) return { value, tag, eqno: equation.eqno };
  }
  return undefined;
}
