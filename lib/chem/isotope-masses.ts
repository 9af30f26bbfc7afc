/**
 * The most abundant isotope of each element in ./atomic-weights.ts: its mass number and its atomic
 * mass in daltons (unified atomic mass units, Da = u), for monoisotopic masses of formulas.
 *
 * Masses: AME2020, M. Wang, W. J. Huang, F. G. Kondev, G. Audi, S. Naimi, "The AME 2020 atomic mass
 * evaluation (II). Tables, graphs and references", Chinese Phys. C 45 (2021) 030003, as tabulated by
 * IUPAC CIAAW (ciaaw.org/atomic-masses.htm). Which isotope is most abundant: IUPAC, "Isotopic
 * compositions of the elements 2013", J. Meija et al., Pure Appl. Chem. 88 (2016) 293–306.
 * These are masses of neutral atoms (electrons included); an ion's mass subtracts its charge times
 * the electron mass (see ELECTRON_MASS_DA in ./constants.ts).
 */
export const ISOTOPE_MASSES_SOURCE =
  'AME2020 atomic masses (M. Wang et al., Chinese Phys. C 45 (2021) 030003; IUPAC CIAAW) of the most abundant isotope (IUPAC isotopic compositions 2013, J. Meija et al., Pure Appl. Chem. 88 (2016) 293)';

interface Isotope {
  massNumber: number;
  /** Atomic mass, Da. */
  mass: number;
}

export const MOST_ABUNDANT_ISOTOPES: Readonly<Record<string, Isotope>> = {
  H: { massNumber: 1, mass: 1.007825031898 },
  He: { massNumber: 4, mass: 4.00260325413 },
  Li: { massNumber: 7, mass: 7.01600343426 },
  Be: { massNumber: 9, mass: 9.012183062 },
  B: { massNumber: 11, mass: 11.009305166 },
  C: { massNumber: 12, mass: 12 },
  N: { massNumber: 14, mass: 14.00307400425 },
  O: { massNumber: 16, mass: 15.99491461926 },
  F: { massNumber: 19, mass: 18.99840316207 },
  Ne: { massNumber: 20, mass: 19.99244017525 },
  Na: { massNumber: 23, mass: 22.98976928195 },
  Mg: { massNumber: 24, mass: 23.985041689 },
  Al: { massNumber: 27, mass: 26.981538408 },
  Si: { massNumber: 28, mass: 27.97692653442 },
  P: { massNumber: 31, mass: 30.97376199768 },
  S: { massNumber: 32, mass: 31.97207117354 },
  Cl: { massNumber: 35, mass: 34.968852694 },
  Ar: { massNumber: 40, mass: 39.96238312204 },
  K: { massNumber: 39, mass: 38.96370648482 },
  Ca: { massNumber: 40, mass: 39.96259085 },
  Sc: { massNumber: 45, mass: 44.955907051 },
  Ti: { massNumber: 48, mass: 47.947940677 },
  V: { massNumber: 51, mass: 50.943957664 },
  Cr: { massNumber: 52, mass: 51.940504714 },
  Mn: { massNumber: 55, mass: 54.93804304 },
  Fe: { massNumber: 56, mass: 55.934935537 },
  Co: { massNumber: 59, mass: 58.933193524 },
  Ni: { massNumber: 58, mass: 57.93534165 },
  Cu: { massNumber: 63, mass: 62.929597119 },
  Zn: { massNumber: 64, mass: 63.929141776 },
  Ga: { massNumber: 69, mass: 68.925573528 },
  Ge: { massNumber: 74, mass: 73.92117776 },
  As: { massNumber: 75, mass: 74.921594562 },
  Se: { massNumber: 80, mass: 79.916521761 },
  Br: { massNumber: 79, mass: 78.918337574 },
  Kr: { massNumber: 84, mass: 83.91149772708 },
  Rb: { massNumber: 85, mass: 84.91178973604 },
  Sr: { massNumber: 88, mass: 87.905612253 },
  Y: { massNumber: 89, mass: 88.905838156 },
  Zr: { massNumber: 90, mass: 89.904698755 },
  Nb: { massNumber: 93, mass: 92.90637317 },
  Mo: { massNumber: 98, mass: 97.905403609 },
  Ru: { massNumber: 102, mass: 101.904340312 },
  Rh: { massNumber: 103, mass: 102.905494081 },
  Pd: { massNumber: 106, mass: 105.903480287 },
  Ag: { massNumber: 107, mass: 106.905091509 },
  Cd: { massNumber: 114, mass: 113.903364998 },
  In: { massNumber: 115, mass: 114.903878772 },
  Sn: { massNumber: 120, mass: 119.902202557 },
  Sb: { massNumber: 121, mass: 120.903811353 },
  Te: { massNumber: 130, mass: 129.906222745 },
  I: { massNumber: 127, mass: 126.904472592 },
  Xe: { massNumber: 132, mass: 131.90415508346 },
  Cs: { massNumber: 133, mass: 132.905451958 },
  Ba: { massNumber: 138, mass: 137.905247059 },
  La: { massNumber: 139, mass: 138.906362927 },
  Ce: { massNumber: 140, mass: 139.905448433 },
  Pr: { massNumber: 141, mass: 140.907659604 },
  Nd: { massNumber: 142, mass: 141.907728824 },
  Sm: { massNumber: 152, mass: 151.919738646 },
  Eu: { massNumber: 153, mass: 152.921236789 },
  Gd: { massNumber: 158, mass: 157.9241112 },
  Tb: { massNumber: 159, mass: 158.925353707 },
  Dy: { massNumber: 164, mass: 163.929180819 },
  Ho: { massNumber: 165, mass: 164.930329116 },
  Er: { massNumber: 166, mass: 165.930301067 },
  Tm: { massNumber: 169, mass: 168.934218956 },
  Yb: { massNumber: 174, mass: 173.938867545 },
  Lu: { massNumber: 175, mass: 174.940777211 },
  Hf: { massNumber: 180, mass: 179.946559537 },
  Ta: { massNumber: 181, mass: 180.947998528 },
  W: { massNumber: 184, mass: 183.95093318 },
  Re: { massNumber: 187, mass: 186.955752217 },
  Os: { massNumber: 192, mass: 191.961478765 },
  Ir: { massNumber: 193, mass: 192.962923753 },
  Pt: { massNumber: 195, mass: 194.964794325 },
  Au: { massNumber: 197, mass: 196.966570103 },
  Hg: { massNumber: 202, mass: 201.970643604 },
  Tl: { massNumber: 205, mass: 204.974427318 },
  Pb: { massNumber: 208, mass: 207.976652005 },
  Bi: { massNumber: 209, mass: 208.980398599 },
  Th: { massNumber: 232, mass: 232.038053606 },
  Pa: { massNumber: 231, mass: 231.0358825 },
  U: { massNumber: 238, mass: 238.050786936 },
};
