/**
 * How much of the catalogue the tools answer from measured data rather than estimates
 * (`npm run data:coverage`): for every built-in compound with a critical temperature, the method
 * service_vapor_pressure and service_liquid_density use at T* = max(0.7·Tc, Tm + 5 K) (the
 * acentric-factor temperature, inside nearly every fitted range) and service_ideal_gas_thermo at
 * 298.15 K. A method is an estimate when its name says so (ESTIMATES); the count goes by the answer a
 * user gets, so it follows the tools' own choice of method and needs no list of data layers here.
 */
import { allCompounds, type Compound } from '../lib/chem/compounds.ts';
import { vaporPressureOf } from '../lib/chem/saturation.ts';
import { ToolError } from '../lib/chem/tool.ts';
import { idealGasThermoOf } from '../lib/chem/tools/ideal-gas-thermo.ts';
import { liquidDensityOf } from '../lib/chem/tools/liquid-density.ts';

/** Method names of the estimates each tool falls back to. */
export const ESTIMATES = [/^Lee–Kesler/, /^Rackett with Zc \(estimate\)/, /^Joback/];

export const PROPERTIES = ['vapor_pressure', 'liquid_density', 'ideal_gas_cp'] as const;
type Property = (typeof PROPERTIES)[number];

/** What answered a property: the source family of a measured-data method, "estimate", or "none". */
export type Basis = string;

export interface CompoundCoverage {
  name: string;
  cas: string;
  basis: Record<Property, Basis>;
}

/** The source family of a method: the part a reader recognises (ChemSep, a Wagner or Antoine equation…). */
function basisOf(method: string): Basis {
  if (ESTIMATES.some((e) => e.test(method))) return 'estimate';
  if (method.startsWith('Reference equation of state')) return 'reference equation of state';
  if (method.startsWith('NASA 7-coefficient')) return 'NASA-7 polynomials';
  if (method.startsWith('ChemSep')) return 'ChemSep 8.32 fit';
  if (method.startsWith('IAPWS')) return 'IAPWS formulation';
  return 'own compilation';
}

async function answer(run: () => Promise<{ method: string }> | { method: string }): Promise<Basis> {
  try {
    return basisOf((await run()).method);
  } catch (error) {
    if (error instanceof ToolError) return 'none';
    throw error;
  }
}

export async function compoundCoverage(compound: Compound): Promise<CompoundCoverage> {
  const p = compound.properties;
  const tc = p.critical_temperature!.value;
  const t = Math.min(Math.max(0.7 * tc, (p.melting_point?.value ?? 0) + 5), 0.99 * tc);
  return {
    name: compound.name,
    cas: compound.cas,
    basis: {
      vapor_pressure: await answer(() => vaporPressureOf(compound, t)),
      liquid_density: await answer(() => liquidDensityOf(compound, t).liquid_density),
      ideal_gas_cp: await answer(async () => (await idealGasThermoOf(compound, 298.15, 298.15)).heat_capacity),
    },
  };
}

export interface CoverageReport {
  compounds: number;
  withCriticalPoint: number;
  /** Per property: how many answer from each basis. */
  byBasis: Record<Property, Record<Basis, number>>;
  allThreeMeasured: number;
  /** Compounds with a critical point that miss measured data for any of the three. */
  short: CompoundCoverage[];
}

export async function coverageReport(compounds: readonly Compound[] = allCompounds()): Promise<CoverageReport> {
  const critical = compounds.filter((c) => c.properties.critical_temperature !== undefined);
  const rows = await Promise.all(critical.map(compoundCoverage));
  const byBasis = Object.fromEntries(
    PROPERTIES.map((k) => [k, {} as Record<Basis, number>]),
  ) as CoverageReport['byBasis'];
  for (const row of rows) for (const k of PROPERTIES) byBasis[k][row.basis[k]] = (byBasis[k][row.basis[k]] ?? 0) + 1;
  const measured = (row: CompoundCoverage) => PROPERTIES.every((k) => !['estimate', 'none'].includes(row.basis[k]));
  return {
    compounds: compounds.length,
    withCriticalPoint: critical.length,
    byBasis,
    allThreeMeasured: rows.filter(measured).length,
    short: rows.filter((row) => !measured(row)),
  };
}

export function formatReport(report: CoverageReport): string {
  const pct = (n: number) => `${((100 * n) / report.withCriticalPoint).toFixed(1)} %`;
  const lines = [
    `Catalogue: ${report.compounds} compounds, ${report.withCriticalPoint} with a critical point.`,
    '',
    ...PROPERTIES.map((k) => {
      const counts = Object.entries(report.byBasis[k]).sort((a, b) => b[1] - a[1]);
      return `${k.padEnd(15)} ${counts.map(([basis, n]) => `${basis} ${n}`).join(', ')}`;
    }),
    '',
    `All three from measured data: ${report.allThreeMeasured} of ${report.withCriticalPoint} (${pct(report.allThreeMeasured)}; goal ≥ 95 %).`,
    '',
    `Short of measured data (${report.short.length}):`,
    ...report.short.map(
      (row) =>
        `  ${row.name} (${row.cas}): ${PROPERTIES.filter((k) => ['estimate', 'none'].includes(row.basis[k]))
          .map((k) => `${k} ${row.basis[k]}`)
          .join(', ')}`,
    ),
  ];
  return lines.join('\n');
}

if (process.argv[1] === import.meta.filename) {
  console.log(formatReport(await coverageReport()));
}
