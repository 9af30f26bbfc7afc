/**
 * Standard atomic weights, g/mol, for the elements the compound data uses.
 *
 * Source: T. Prohaska et al., "Standard atomic weights of the elements 2021 (IUPAC Technical Report)",
 * Pure Appl. Chem. 94 (2022) 573–600. Elements whose standard atomic weight is an interval
 * (H, B, C, N, O, Si, S, Cl, Ar, Br) carry the IUPAC conventional value from that report, which is what
 * handbooks use to print molar masses; the others carry the single standard value as published.
 * Add an element here (with its 2021 value) before adding a compound that contains it.
 */
export const ATOMIC_WEIGHTS_SOURCE =
  'IUPAC CIAAW, Standard atomic weights of the elements 2021 (T. Prohaska et al., Pure Appl. Chem. 94 (2022) 573–600); conventional values for interval elements';

export const ATOMIC_WEIGHTS: Readonly<Record<string, number>> = {
  H: 1.008,
  He: 4.002602,
  B: 10.81,
  C: 12.011,
  N: 14.007,
  O: 15.999,
  F: 18.998403162,
  Ne: 20.1797,
  Si: 28.085,
  P: 30.973761998,
  S: 32.06,
  Cl: 35.45,
  Ar: 39.95,
  Br: 79.904,
  Kr: 83.798,
  I: 126.90447,
  Xe: 131.293,
};
