/**
 * The table of units: the units chemists and chemical engineers type, by dimension, each with its
 * canonical symbol, its exact definition in SI and the other spellings accepted. ./units.ts builds
 * its registry from this table and converts with it.
 *
 * Factors follow NIST Special Publication 811 (A. Thompson, B. N. Taylor, "Guide for the Use of the
 * International System of Units (SI)", 2008 edition, Appendix B), which gives each customary unit
 * by its definition: the international foot and pound (0.3048 m, 0.45359237 kg exactly, 1959), the
 * standard acceleration of gravity (9.80665 m/s²) behind lbf, kgf and the conventional mmHg, the
 * standard atmosphere (101325 Pa), the thermochemical calorie (4.184 J), the International Table Btu
 * (1055.05585262 J), the US gallon (231 in³). Factors are therefore written as those definitions
 * (e.g. psi = 0.45359237·9.80665/0.0254² Pa) rather than as SP 811's rounded table entries, and are
 * exact up to binary floating point. Since the 2019 SI the electronvolt is exact too; the dalton is
 * not (CODATA 2018), and such units say `exact: false`.
 *
 * "cal" is the thermochemical calorie (4.184 J), the one thermochemistry tables use; the
 * International Table calorie (4.1868 J) is "cal_IT". "Btu" is the International Table Btu.
 */

import { STANDARD_ATMOSPHERE, STANDARD_GRAVITY } from './constants.ts';

export const UNITS_SOURCE =
  'NIST SP 811 (2008), Guide for the Use of the International System of Units, Appendix B; exact definitions of the customary units';

/** What a unit measures. Each dimension has one SI unit that toSI returns. */
export const SI_UNITS = {
  temperature: 'K',
  pressure: 'Pa',
  length: 'm',
  area: 'm2',
  volume: 'm3',
  mass: 'kg',
  amount: 'mol',
  time: 's',
  energy: 'J',
  power: 'W',
  force: 'N',
  molar_volume: 'm3/mol',
  molar_mass: 'kg/mol',
  density: 'kg/m3',
  molar_density: 'mol/m3',
  molar_energy: 'J/mol',
  /** Molar entropy and molar heat capacity. */
  molar_entropy: 'J/(mol·K)',
  specific_energy: 'J/kg',
  specific_heat_capacity: 'J/(kg·K)',
  dynamic_viscosity: 'Pa·s',
  kinematic_viscosity: 'm2/s',
  thermal_conductivity: 'W/(m·K)',
  surface_tension: 'N/m',
  dipole_moment: 'C·m',
} as const;

export type Dimension = keyof typeof SI_UNITS;

export const DIMENSIONS = Object.keys(SI_UNITS) as Dimension[];

// Defining values (NIST SP 811 Appendix B; the SI Brochure, 9th ed., 2019).
const FT = 0.3048; // m, international foot
const IN = 0.0254; // m, international inch
const LB = 0.45359237; // kg, avoirdupois pound
const LBF = LB * STANDARD_GRAVITY; // N, pound-force
const KGF = STANDARD_GRAVITY; // N, kilogram-force
const LBMOL = 1000 * LB; // mol: a pound-mole holds as many entities as a pound holds grams
const CAL = 4.184; // J, thermochemical calorie
const CAL_IT = 4.1868; // J, International Table calorie
const BTU = 1055.05585262; // J, International Table Btu
const RANKINE = 5 / 9; // K per °F or °R
const MMHG = 13595.1 * STANDARD_GRAVITY * 1e-3; // Pa: conventional millimetre of mercury, 133.322387415 Pa
const GAL = 231 * IN ** 3; // m3, US liquid gallon, 3.785411784e-3 m3
const EV = 1.602176634e-19; // J, electronvolt (exact since 2019)
const DALTON = 1.6605390666e-27; // kg, CODATA 2018 (measured)
const DEBYE = 1e-21 / 299792458; // C·m: 1e-18 statC·cm

/**
 * One unit as the table gives it: canonical symbol, factor to SI (SI value = (value + offset) · factor),
 * other spellings, and when they apply its offset, inexactness and definition in words.
 */
type UnitSpec = [
  symbol: string,
  factor: number,
  aliases?: string[],
  extra?: { offset?: number; exact?: boolean; note?: string },
];

/**
 * The spellings of a quotient unit: "J/(mol·K)", "J/mol/K", "J/mol·K", "J/molK", "J mol-1 K-1"…
 * Spaces, dots and asterisks between factors all read as multiplication (see unitKey in ./units.ts).
 */
function quotient(numerator: string, ...denominators: string[]): string[] {
  const [a, b] = denominators;
  const inverse = (d: string) =>
    d.replace(/^(.*?[^0-9])([0-9]*)$/, (_, base: string, power: string) => `${base}-${power || '1'}`);
  if (b === undefined) return [`${numerator}/${a}`, `${numerator}·${inverse(a)}`];
  return [
    `${numerator}/(${a}·${b})`,
    `${numerator}/(${b}·${a})`,
    `${numerator}/${a}/${b}`,
    `${numerator}/${b}/${a}`,
    `${numerator}/${a}·${b}`,
    `${numerator}/${a}${b}`,
    `${numerator}·${inverse(a)}·${inverse(b)}`,
    `${numerator}·${inverse(b)}·${inverse(a)}`,
  ];
}

/** A quotient unit: canonical symbol (first spelling) and the other spellings, also for each denominator alias. */
function per(
  numerator: string,
  factor: number,
  denominators: string[][],
  extraAliases: string[] = [],
  extra?: UnitSpec[3],
): UnitSpec {
  const [canonical, ...rest] = quotient(numerator, ...denominators.map((d) => d[0]));
  const aliases = new Set([...rest, ...extraAliases]);
  // Every combination of the denominators' alternative spellings (°C for K in J/(mol·°C), lbmol for lb-mol…).
  const combos = denominators.reduce<string[][]>((acc, d) => acc.flatMap((c) => d.map((s) => [...c, s])), [[]]);
  for (const combo of combos) for (const s of quotient(numerator, ...combo)) aliases.add(s);
  aliases.delete(canonical);
  return [canonical, factor, [...aliases], extra];
}

const K_ = ['K', '°C']; // a kelvin-sized degree inside a compound unit
const R_ = ['°F', '°R', 'R', 'F']; // a rankine-sized degree inside a compound unit
const MOL = ['mol'];
const KMOL = ['kmol'];
const LBMOL_ = ['lbmol', 'lb-mol', 'lbmole'];

export const UNIT_TABLE: Record<Dimension, UnitSpec[]> = {
  temperature: [
    ['K', 1, ['kelvin', 'kelvins', 'degK']],
    ['°C', 1, ['C', 'degC', 'deg C', 'celsius', 'degree Celsius', 'degrees Celsius', 'centigrade'], { offset: 273.15 }],
    [
      '°F',
      RANKINE,
      ['F', 'degF', 'deg F', 'fahrenheit', 'degree Fahrenheit', 'degrees Fahrenheit'],
      { offset: 459.67 },
    ],
    ['R', RANKINE, ['°R', 'degR', 'deg R', 'Ra', 'rankine', 'degree Rankine', 'degrees Rankine']],
  ],
  pressure: [
    ['Pa', 1, ['pascal', 'pascals', 'N/m2', 'N·m-2']],
    ['hPa', 1e2, ['hectopascal']],
    ['kPa', 1e3, ['kilopascal', 'kPaa', 'kPa(a)']],
    ['MPa', 1e6, ['megapascal', 'MPaa', 'MPa(a)', 'N/mm2']],
    ['GPa', 1e9, ['gigapascal']],
    ['mbar', 1e2, ['millibar', 'mb']],
    ['bar', 1e5, ['bars', 'bara', 'bar(a)']],
    ['kbar', 1e8, ['kilobar']],
    ['atm', STANDARD_ATMOSPHERE, ['atmosphere', 'atmospheres', 'standard atmosphere']],
    [
      'at',
      98066.5,
      ['technical atmosphere', 'kgf/cm2', 'kg/cm2'],
      { note: 'technical atmosphere: 1 kgf/cm² = 98066.5 Pa' },
    ],
    [
      'psi',
      LBF / IN ** 2,
      ['psia', 'lbf/in2', 'lb/in2', 'psi(a)'],
      { note: 'pound-force per square inch = 0.45359237·9.80665/0.0254² Pa ≈ 6894.757293168 Pa' },
    ],
    ['ksi', (1000 * LBF) / IN ** 2, ['kpsi']],
    [
      'mmHg',
      MMHG,
      ['mm Hg', 'millimetre of mercury', 'millimeter of mercury', 'mmHg(0°C)'],
      { note: 'conventional mmHg: 13595.1 kg/m³ · 9.80665 m/s² · 1 mm = 133.322387415 Pa' },
    ],
    ['torr', STANDARD_ATMOSPHERE / 760, ['Torr', 'mmHg(torr)'], { note: '1 torr = 101325/760 Pa ≈ 133.322368 Pa' }],
    ['mTorr', STANDARD_ATMOSPHERE / 760e3, ['millitorr', 'mtorr']],
    [
      'inHg',
      MMHG * 25.4,
      ['in Hg', 'inch of mercury', 'inches of mercury'],
      { note: 'conventional inch of mercury = 25.4 conventional mmHg = 3386.388640341 Pa' },
    ],
    ['dyn/cm2', 0.1, ['barye', 'dyn·cm-2']],
  ],
  length: [
    ['m', 1, ['metre', 'meter', 'metres', 'meters']],
    ['km', 1e3, ['kilometre', 'kilometer']],
    ['cm', 1e-2, ['centimetre', 'centimeter']],
    ['mm', 1e-3, ['millimetre', 'millimeter']],
    ['µm', 1e-6, ['um', 'micron', 'micrometre', 'micrometer']],
    ['nm', 1e-9, ['nanometre', 'nanometer']],
    ['pm', 1e-12, ['picometre', 'picometer']],
    ['Å', 1e-10, ['angstrom', 'Angstrom', 'ångström']],
    ['in', IN, ['inch', 'inches']],
    ['ft', FT, ['foot', 'feet']],
    ['yd', 3 * FT, ['yard', 'yards']],
    ['mi', 5280 * FT, ['mile', 'miles']],
  ],
  area: [
    ['m2', 1, ['sq m']],
    ['km2', 1e6, []],
    ['cm2', 1e-4, []],
    ['mm2', 1e-6, []],
    ['in2', IN ** 2, ['sq in']],
    ['ft2', FT ** 2, ['sq ft']],
  ],
  volume: [
    ['m3', 1, ['cubic metre', 'cubic meter']],
    ['dm3', 1e-3, []],
    ['L', 1e-3, ['l', 'litre', 'liter', 'litres', 'liters']],
    ['mL', 1e-6, ['ml', 'millilitre', 'milliliter']],
    ['cm3', 1e-6, ['cc', 'ccm']],
    ['µL', 1e-9, ['uL', 'ul', 'microlitre', 'microliter']],
    ['mm3', 1e-9, []],
    ['in3', IN ** 3, ['cu in']],
    ['ft3', FT ** 3, ['cu ft', 'cf']],
    [
      'gal',
      GAL,
      ['US gal', 'gal_US', 'gallon', 'gallons', 'US gallon'],
      { note: 'US liquid gallon = 231 in³ = 3.785411784 L' },
    ],
    ['gal_UK', 4.54609e-3, ['imp gal', 'UK gal', 'imperial gallon'], { note: 'imperial gallon = 4.54609 L' }],
    ['bbl', 42 * GAL, ['barrel', 'oil barrel'], { note: 'oil barrel = 42 US gal = 158.987294928 L' }],
  ],
  mass: [
    ['kg', 1, ['kilogram', 'kilograms']],
    ['g', 1e-3, ['gram', 'grams']],
    ['mg', 1e-6, ['milligram', 'milligrams']],
    ['µg', 1e-9, ['ug', 'microgram', 'micrograms']],
    ['t', 1e3, ['tonne', 'tonnes', 'metric ton']],
    ['lb', LB, ['lbm', 'lbs', 'pound', 'pounds'], { note: 'avoirdupois pound = 0.45359237 kg' }],
    ['oz', LB / 16, ['ounce', 'ounces'], { note: 'avoirdupois ounce = 1/16 lb' }],
    [
      'Da',
      DALTON,
      ['u', 'amu', 'dalton', 'daltons'],
      { exact: false, note: 'dalton (unified atomic mass unit), CODATA 2018: 1.66053906660e-27 kg' },
    ],
  ],
  amount: [
    ['mol', 1, ['mole', 'moles', 'gmol', 'g-mol', 'gmole']],
    ['kmol', 1e3, ['kilomole', 'kgmol', 'kg-mol']],
    ['mmol', 1e-3, ['millimole']],
    ['µmol', 1e-6, ['umol', 'micromole']],
    ['lbmol', LBMOL, ['lb-mol', 'lbmole', 'pound-mole', 'lb mol'], { note: 'pound-mole = 453.59237 mol' }],
  ],
  time: [
    ['s', 1, ['sec', 'second', 'seconds']],
    ['ms', 1e-3, ['millisecond', 'milliseconds']],
    ['µs', 1e-6, ['us', 'microsecond', 'microseconds']],
    ['ns', 1e-9, ['nanosecond', 'nanoseconds']],
    ['min', 60, ['minute', 'minutes']],
    ['h', 3600, ['hr', 'hour', 'hours']],
    ['d', 86400, ['day', 'days']],
  ],
  energy: [
    ['J', 1, ['joule', 'joules', 'N·m', 'W·s']],
    ['kJ', 1e3, ['kilojoule', 'kilojoules']],
    ['MJ', 1e6, ['megajoule']],
    ['GJ', 1e9, ['gigajoule']],
    [
      'cal',
      CAL,
      ['cal_th', 'calorie', 'calories', 'thermochemical calorie'],
      { note: 'thermochemical calorie = 4.184 J' },
    ],
    ['kcal', 1e3 * CAL, ['kcal_th', 'kilocalorie', 'kilocalories']],
    ['cal_IT', CAL_IT, ['calIT', 'International Table calorie'], { note: 'International Table calorie = 4.1868 J' }],
    ['kcal_IT', 1e3 * CAL_IT, ['kcalIT']],
    [
      'Btu',
      BTU,
      ['BTU', 'Btu_IT', 'BTU_IT', 'British thermal unit'],
      { note: 'International Table Btu = 1055.05585262 J' },
    ],
    ['MMBtu', 1e6 * BTU, ['MMBTU']],
    ['Wh', 3600, ['W·h']],
    ['kWh', 3.6e6, ['kW·h', 'kilowatt hour', 'kilowatt-hour']],
    ['eV', EV, ['electronvolt', 'electron volt']],
    ['erg', 1e-7, ['ergs']],
    ['L·atm', 1e-3 * STANDARD_ATMOSPHERE, ['L atm', 'atm·L', 'litre atmosphere', 'liter atmosphere']],
    ['ft·lbf', FT * LBF, ['ft lbf', 'ft-lbf', 'lbf·ft', 'foot-pound']],
  ],
  power: [
    ['W', 1, ['watt', 'watts', 'J/s']],
    ['mW', 1e-3, ['milliwatt']],
    ['kW', 1e3, ['kilowatt', 'kilowatts', 'kJ/s']],
    ['MW', 1e6, ['megawatt', 'megawatts']],
    ['hp', 550 * FT * LBF, ['horsepower', 'bhp'], { note: 'mechanical horsepower = 550 ft·lbf/s ≈ 745.6999 W' }],
    ['Btu/h', BTU / 3600, ['BTU/h', 'Btu/hr', 'BTU/hr', 'Btu·h-1']],
    ['kcal/h', (1e3 * CAL) / 3600, ['kcal/hr', 'kcal·h-1']],
    ['cal/s', CAL, ['cal·s-1']],
  ],
  force: [
    ['N', 1, ['newton', 'newtons']],
    ['kN', 1e3, ['kilonewton']],
    ['dyn', 1e-5, ['dyne', 'dynes']],
    [
      'lbf',
      LBF,
      ['pound-force', 'pound force'],
      { note: 'pound-force = 0.45359237 kg · 9.80665 m/s² = 4.4482216152605 N' },
    ],
    ['kgf', KGF, ['kilogram-force', 'kp']],
  ],
  molar_volume: [
    per('m3', 1, [MOL]),
    per('m3', 1e-3, [KMOL]),
    per('L', 1e-3, [MOL], quotient('l', 'mol')),
    per('dm3', 1e-3, [MOL]),
    per('cm3', 1e-6, [MOL], quotient('cc', 'mol')),
    per('mL', 1e-6, [MOL], quotient('ml', 'mol')),
    per('ft3', FT ** 3 / LBMOL, [LBMOL_]),
  ],
  molar_mass: [
    per('kg', 1, [MOL]),
    per('g', 1e-3, [MOL]),
    per('kg', 1e-3, [KMOL]),
    per('lb', 1e-3, [LBMOL_], quotient('lbm', 'lbmol')),
  ],
  density: [
    per('kg', 1, [['m3']]),
    per('g', 1e3, [['cm3', 'cc']]),
    per('g', 1e3, [['mL', 'ml']]),
    per('g', 1, [['L', 'l']]),
    per('kg', 1e3, [['L', 'l', 'dm3']]),
    per('mg', 1e-3, [['L', 'l']]),
    per('lb', LB / FT ** 3, [['ft3']], quotient('lbm', 'ft3')),
    per('lb', LB / GAL, [['gal']], ['ppg']),
  ],
  molar_density: [
    per('mol', 1, [['m3']]),
    per('kmol', 1e3, [['m3']]),
    per('mol', 1e3, [['L', 'l', 'dm3']], ['M', 'molar']),
    per('mmol', 1, [['L', 'l']], ['mM']),
    per('mol', 1e6, [['cm3']]),
    per('lbmol', LBMOL / FT ** 3, [['ft3']]),
  ],
  molar_energy: [
    per('J', 1, [MOL]),
    per('kJ', 1e3, [MOL], quotient('MJ', 'kmol')),
    per('J', 1e-3, [KMOL]),
    per('kJ', 1, [KMOL]),
    per('cal', CAL, [MOL]),
    per('kcal', 1e3 * CAL, [MOL]),
    per('Btu', BTU / LBMOL, [LBMOL_], quotient('BTU', 'lbmol')),
  ],
  molar_entropy: [
    per('J', 1, [MOL, K_]),
    per('kJ', 1e3, [MOL, K_]),
    per('J', 1e-3, [KMOL, K_]),
    per('kJ', 1, [KMOL, K_]),
    per('cal', CAL, [MOL, K_], ['e.u.']),
    per('kcal', 1e3 * CAL, [MOL, K_]),
    per('Btu', BTU / LBMOL / RANKINE, [LBMOL_, R_]),
  ],
  specific_energy: [
    per('J', 1, [['kg']]),
    per('kJ', 1e3, [['kg']]),
    per('MJ', 1e6, [['kg']]),
    per('cal', CAL * 1e3, [['g']]),
    per('kcal', CAL * 1e3, [['kg']]),
    per('Btu', BTU / LB, [['lb', 'lbm']], quotient('BTU', 'lb')),
  ],
  specific_heat_capacity: [
    per('J', 1, [['kg'], K_]),
    per('kJ', 1e3, [['kg'], K_]),
    per('J', 1e3, [['g'], K_]),
    per('cal', CAL * 1e3, [['g'], K_]),
    per('kcal', CAL * 1e3, [['kg'], K_]),
    per('Btu', BTU / LB / RANKINE, [['lb', 'lbm'], R_]),
  ],
  dynamic_viscosity: [
    ['Pa·s', 1, ['Pa s', 'Pas', 'N·s/m2', 'kg/(m·s)', 'kg·m-1·s-1']],
    ['mPa·s', 1e-3, ['mPa s', 'mPas']],
    ['µPa·s', 1e-6, ['uPa·s', 'uPa s', 'µPa s', 'uPas', 'µPas']],
    ['cP', 1e-3, ['cp', 'centipoise']],
    ['P', 0.1, ['poise', 'g/(cm·s)']],
    ['lb/(ft·s)', LB / FT, ['lbm/(ft·s)', 'lb/ft/s', 'lb/ft·s']],
  ],
  kinematic_viscosity: [
    ['m2/s', 1, ['m2·s-1']],
    ['mm2/s', 1e-6, ['mm2·s-1']],
    ['cm2/s', 1e-4, ['cm2·s-1']],
    ['cSt', 1e-6, ['centistokes', 'cst']],
    ['St', 1e-4, ['stokes']],
    ['ft2/s', FT ** 2, []],
  ],
  thermal_conductivity: [
    per('W', 1, [['m'], K_]),
    per('mW', 1e-3, [['m'], K_]),
    [
      'Btu/(h·ft·°F)',
      BTU / 3600 / FT / RANKINE,
      [
        'Btu/h/ft/°F',
        'Btu/(hr·ft·°F)',
        'Btu/hr/ft/°F',
        'Btu/(h·ft·R)',
        'BTU/(h·ft·°F)',
        'BTU/(hr·ft·°F)',
        'Btu/(h·ft·F)',
        'Btu/(hr·ft·F)',
      ],
    ],
  ],
  surface_tension: [
    ['N/m', 1, ['N·m-1', 'J/m2']],
    ['mN/m', 1e-3, ['mN·m-1', 'mJ/m2']],
    ['dyn/cm', 1e-3, ['dyne/cm', 'dyn·cm-1']],
  ],
  dipole_moment: [
    ['C·m', 1, ['C m', 'Cm']],
    ['D', DEBYE, ['debye', 'Debye'], { note: 'debye = 1e-18 statC·cm = 1e-21/c C·m ≈ 3.33564e-30 C·m' }],
  ],
};
