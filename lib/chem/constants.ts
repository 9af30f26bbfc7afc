/**
 * Physical constants, SI units, as published in CODATA 2018 (E. Tiesinga, P. J. Mohr, D. B. Newell,
 * B. N. Taylor, "CODATA recommended values of the fundamental physical constants: 2018",
 * Rev. Mod. Phys. 93 (2021) 025010; https://physics.nist.gov/cuu/Constants/). Since the 2019 SI
 * redefinition NA, k, e and c are exact, and so is R = NA·k; the electron mass is measured.
 */
export const CODATA_2018_SOURCE =
  'CODATA 2018 recommended values (E. Tiesinga et al., Rev. Mod. Phys. 93 (2021) 025010; physics.nist.gov/cuu/Constants)';

/** Avogadro constant NA, 1/mol (exact). */
export const AVOGADRO = 6.02214076e23;

/** Boltzmann constant k, J/K (exact). */
export const BOLTZMANN = 1.380649e-23;

/**
 * Molar gas constant R = NA·k, J/(mol·K), exact. CODATA prints it truncated as 8.314 462 618… ;
 * the product of the two exact constants is 8.314 462 618 153 24 to double precision.
 */
export const R = 8.31446261815324;

/** Elementary charge e, C (exact). */
export const ELEMENTARY_CHARGE = 1.602176634e-19;

/** Faraday constant F = NA·e, C/mol (exact: 96485.33212… C/mol). */
export const FARADAY = 96485.33212;

/** Speed of light in vacuum c, m/s (exact). */
export const SPEED_OF_LIGHT = 299792458;

/** Electron mass in unified atomic mass units (daltons), Da; relative standard uncertainty 2.9e-11. */
export const ELECTRON_MASS_DA = 5.48579909065e-4;

/**
 * Standard acceleration of gravity gn, m/s² (exact by convention: 3rd CGPM 1901), and the standard
 * atmosphere, Pa (exact by convention: 10th CGPM 1954). Both define customary units in unit-table.ts.
 */
export const STANDARD_GRAVITY = 9.80665;
export const STANDARD_ATMOSPHERE = 101325;
