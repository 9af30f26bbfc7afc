/**
 * The catalogue of scalar compound properties: key, unit and meaning. The data loader accepts
 * only these keys, each with exactly this unit, and the query tool's outputSchema is built from
 * this list, so adding a property is one entry here plus values in the data files.
 */
import { type Fail, isRecord, stringList } from './json-checks.ts';

interface PropertyDefinition {
  unit: string;
  description: string;
}

export const PROPERTY_DEFINITIONS = {
  molecular_weight: { unit: 'g/mol', description: 'Molar mass.' },
  critical_temperature: { unit: 'K', description: 'Critical temperature Tc.' },
  critical_pressure: { unit: 'bar', description: 'Critical pressure Pc (1 bar = 100 kPa).' },
  critical_volume: { unit: 'cm3/mol', description: 'Critical molar volume Vc.' },
  critical_compressibility: {
    unit: '',
    description: 'Critical compressibility factor Zc = Pc·Vc/(R·Tc), dimensionless.',
  },
  acentric_factor: { unit: '', description: 'Pitzer acentric factor ω = −log10(Psat(0.7·Tc)/Pc) − 1, dimensionless.' },
  normal_boiling_point: { unit: 'K', description: 'Boiling temperature at 101.325 kPa.' },
  sublimation_point: {
    unit: 'K',
    description:
      'Sublimation temperature at 101.325 kPa, given instead of a boiling point for substances whose liquid does not exist at 1 atm (e.g. CO2).',
  },
  melting_point: {
    unit: 'K',
    description: 'Melting (freezing) temperature at 101.325 kPa, or the triple point where the note says so.',
  },
  enthalpy_of_formation_gas: {
    unit: 'kJ/mol',
    description: 'Standard enthalpy of formation of the ideal gas at 298.15 K and 1 bar, ΔfH°(g).',
  },
  gibbs_energy_of_formation_gas: {
    unit: 'kJ/mol',
    description: 'Standard Gibbs energy of formation of the ideal gas at 298.15 K and 1 bar, ΔfG°(g).',
  },
  dipole_moment: { unit: 'D', description: 'Dipole moment of the free molecule (1 D = 3.33564e-30 C·m).' },
  liquid_density: {
    unit: 'kg/m3',
    description: 'Density of the saturated (or 1 atm) liquid at the temperature given with the value.',
  },
  enthalpy_of_vaporization_at_boiling_point: {
    unit: 'kJ/mol',
    description: 'Enthalpy of vaporization ΔHvap at the normal boiling point (the temperature given with the value).',
  },
  enthalpy_of_vaporization_298k: {
    unit: 'kJ/mol',
    description: 'Enthalpy of vaporization ΔHvap of the saturated liquid at 298.15 K.',
  },
  liquid_heat_capacity_at_boiling_point: {
    unit: 'J/(mol·K)',
    description: 'Isobaric heat capacity of the saturated liquid at the normal boiling point.',
  },
  liquid_heat_capacity_298k: {
    unit: 'J/(mol·K)',
    description: 'Isobaric heat capacity of the saturated liquid at 298.15 K.',
  },
  rackett_compressibility: {
    unit: '',
    description: 'Rackett parameter ZRA fitted to liquid densities (Spencer & Danner), dimensionless.',
  },
} as const satisfies Record<string, PropertyDefinition>;

export type PropertyKey = keyof typeof PROPERTY_DEFINITIONS;

export const PROPERTY_KEYS = Object.keys(PROPERTY_DEFINITIONS) as PropertyKey[];

/** One value as served: always with its unit and the published source it comes from. */
export interface PropertyValue {
  value: number;
  unit: string;
  source: string;
  /** How it was obtained when not read straight from the source (e.g. computed from other values). */
  method?: string;
  /** What the value is when the property name alone would mislead (e.g. a triple point). */
  note?: string;
  /** Caveats for using the value (e.g. a correlation that does not apply to this substance). */
  warnings?: string[];
  /** The temperature a value holds at, where it depends on one (liquid_density). */
  temperature?: { value: number; unit: 'K' };
}

/** Properties whose values must state the temperature they hold at. */
export const TEMPERATURE_DEPENDENT: ReadonlySet<PropertyKey> = new Set([
  'liquid_density',
  'enthalpy_of_vaporization_at_boiling_point',
  'enthalpy_of_vaporization_298k',
  'liquid_heat_capacity_at_boiling_point',
  'liquid_heat_capacity_298k',
]);

const VALUE_FIELDS = new Set(['value', 'unit', 'source', 'method', 'note', 'warnings', 'temperature']);

/**
 * One property value from JSON, checked: a finite number in the property's unit, a source (which
 * `resolveSource` turns into the citation served, or refuses), optional method/note/warnings, and the
 * temperature exactly when the property depends on one.
 */
export function readPropertyValue(
  raw: unknown,
  key: PropertyKey,
  resolveSource: (source: unknown) => string,
  fail: Fail,
): PropertyValue {
  const unit = PROPERTY_DEFINITIONS[key].unit;
  if (!isRecord(raw)) return fail('not an object');
  for (const field of Object.keys(raw)) if (!VALUE_FIELDS.has(field)) fail(`unknown field "${field}"`);
  if (typeof raw.value !== 'number' || !Number.isFinite(raw.value)) fail('value must be a finite number');
  if (raw.unit !== unit) fail(`unit must be "${unit}", got ${JSON.stringify(raw.unit)}`);
  const source = resolveSource(raw.source);
  for (const field of ['method', 'note'] as const) {
    if (raw[field] !== undefined && typeof raw[field] !== 'string') fail(`${field} must be a string`);
  }
  const warnings =
    raw.warnings === undefined ? undefined : (stringList(raw.warnings) ?? fail('warnings must be an array of strings'));
  const temperature = raw.temperature;
  if (TEMPERATURE_DEPENDENT.has(key) !== (temperature !== undefined)) {
    fail(
      TEMPERATURE_DEPENDENT.has(key) ? 'needs "temperature": {"value": <K>, "unit": "K"}' : 'takes no "temperature"',
    );
  }
  if (
    temperature !== undefined &&
    !(
      isRecord(temperature) &&
      typeof temperature.value === 'number' &&
      temperature.value > 0 &&
      temperature.unit === 'K'
    )
  ) {
    fail('"temperature" must be {"value": <K>, "unit": "K"}');
  }
  return {
    value: raw.value as number,
    unit,
    source,
    ...(raw.method === undefined ? {} : { method: raw.method as string }),
    ...(raw.note === undefined ? {} : { note: raw.note as string }),
    ...(warnings === undefined ? {} : { warnings }),
    ...(temperature === undefined
      ? {}
      : { temperature: { value: (temperature as { value: number }).value, unit: 'K' as const } }),
  };
}
