/**
 * Physical constants, SI units, as published in CODATA 2018 (E. Tiesinga, P. J. Mohr, D. B. Newell,
 * B. N. Taylor, "CODATA recommended values of the fundamental physical constants: 2018",
 * Rev. Mod. Phys. 93 (2021) 025010; https://physics.nist.gov/cuu/Constants/). Since the 2019 SI
 * redefinition NA and k are exact, and so is R = NA·k; the electron mass is measured.
 */
export const CODATA_2018_SOURCE =
  'CODATA 2018 recommended values (E. Tiesinga et al., Rev. Mod. Phys. 93 (2021) 025010; physics.nist.gov/cuu/Constants)';

/**
 * Molar gas constant R = NA·k (Avogadro constant 6.022 140 76e23 /mol times Boltzmann constant
 * 1.380 649e-23 J/K, both exact), J/(mol·K), exact. CODATA prints it truncated as 8.314 462 618… ;
 * the product of the two exact constants is 8.314 462 618 153 24 to double precision.
 */
export const R = 8.31446261815324;

/** Electron mass in unified atomic mass units (daltons), Da; relative standard uncertainty 2.9e-11. */
export const ELECTRON_MASS_DA = 5.48579909065e-4;

/**
 * Standard acceleration of gravity gn, m/s² (exact by convention: 3rd CGPM 1901), and the standard
 * atmosphere, Pa (exact by convention: 10th CGPM 1954). Both define customary units in unit-table.ts.
 */
export const STANDARD_GRAVITY = 9.80665;
export const STANDARD_ATMOSPHERE = 101325;
