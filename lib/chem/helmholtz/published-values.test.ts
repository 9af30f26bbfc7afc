/**
 * The reference equations of state against the check values printed in their papers: the CoolProp
 * coefficient files read by ./fluids.ts must reproduce each paper's own tables to the digits printed.
 * The tables (transcribed in pychemqt's tests, github.com/jjgomera/pychemqt lib/mEoS/*.py, GPL; the
 * numbers are the papers') are given as [inputs, [[property, published value, decimals printed]]]:
 *   inputs  { satT } saturation at T (K), { satP } at p (Pa), { T, p } the stable phase at (T, p),
 *           { T, molL } at T and a molar density in mol/dm3;
 *   names   P.MPa, P.kPa; rho (kg/m3), rhoM (mol/dm3); h.kJkg, hM.Jmol, hM.kJmol (also u); s.kJkgK,
 *           sM.JmolK (also cv, cp); w (m/s); T (K); prefixed liquid. or vapor. on the saturation line.
 * Each value must agree to one unit of its last printed digit. Enthalpy, internal energy and entropy
 * are compared after removing one constant per fluid (the mean difference): CoolProp's files place
 * some equations on another reference state (h, s zero elsewhere) with an offset term, which moves
 * every h and s by the same amount. Beyond the printed digits each value may differ by 1e-6 relative
 * (for h, u and s: relative to the largest magnitude of that column, the scale of the cancellation in
 * h = u + p/ρ): ammonia's table differs from the file's equation by up to 6e-7 relative in every
 * column, the size of a change of the gas constant in its 7th digit (the file gives R = 8.3144598).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ancillaryValue, type ReferenceFluid } from './fluid-file.ts';
import { referenceFluidByCas, referenceFluids } from './fluids.ts';
import {
  densityAt,
  type FluidState,
  type SaturationState,
  saturationAtPressure,
  saturationAtTemperature,
  stateAt,
} from './state.ts';
import { residual } from './terms.ts';

type Inputs = { satT: number } | { satP: number } | { T: number; p: number } | { T: number; molL: number };
type Row = [Inputs, [string, number, number][]];
interface PaperTable {
  fluid: string;
  cas: string;
  source: string;
  /** The relative agreement beyond the printed digits (default 1e-6, see above). */
  relative?: number;
  rows: Row[];
}

const PAPER_TABLES: PaperTable[] = [
  {
    fluid: 'CarbonDioxide',
    source:
      'R. Span, W. Wagner, J. Phys. Chem. Ref. Data 25 (1996) 1509, Table 34 (saturation, p. 1560) and Table 35 (single phase, p. 1562)',
    cas: '124-38-9',
    rows: [
      [
        { satT: 216.592 },
        [
          ['P.MPa', 0.51796, 5],
          ['liquid.rho', 1178.46, 2],
          ['liquid.h.kJkg', -426.74, 2],
          ['liquid.s.kJkgK', -2.2177, 4],
          ['liquid.cv.kJkgK', 0.97466, 5],
          ['liquid.cp.kJkgK', 1.9532, 4],
          ['liquid.w', 975.85, 2],
          ['vapor.rho', 13.761, 3],
          ['vapor.h.kJkg', -76.364, 3],
          ['vapor.s.kJkgK', -0.59999, 5],
          ['vapor.cv.kJkgK', 0.6292, 4],
          ['vapor.cp.kJkgK', 0.90872, 5],
          ['vapor.w', 222.78, 2],
        ],
      ],
      [
        { satT: 240 },
        [
          ['P.MPa', 1.2825, 4],
          ['liquid.rho', 1088.87, 2],
          ['liquid.h.kJkg', -379.94, 2],
          ['liquid.s.kJkgK', -2.0155, 4],
          ['liquid.cv.kJkgK', 0.94535, 5],
          ['liquid.cp.kJkgK', 2.051, 4],
          ['liquid.w', 806.38, 2],
          ['vapor.rho', 33.295, 3],
          ['vapor.h.kJkg', -70.293, 3],
          ['vapor.s.kJkgK', -0.72532, 5],
          ['vapor.cv.kJkgK', 0.70534, 5],
          ['vapor.cp.kJkgK', 1.1033, 4],
          ['vapor.w', 222.96, 2],
        ],
      ],
      [
        { satT: 260 },
        [
          ['P.MPa', 2.4188, 4],
          ['liquid.rho', 998.89, 2],
          ['liquid.h.kJkg', -337.34, 2],
          ['liquid.s.kJkgK', -1.8495, 4],
          ['liquid.cv.kJkgK', 0.93227, 5],
          ['liquid.cp.kJkgK', 2.2554, 4],
          ['liquid.w', 652.58, 2],
          ['vapor.rho', 64.417, 3],
          ['vapor.h.kJkg', -70.862, 3],
          ['vapor.s.kJkgK', -0.82456, 5],
          ['vapor.cv.kJkgK', 0.79426, 5],
          ['vapor.cp.kJkgK', 1.4295, 4],
          ['vapor.w', 218.19, 2],
        ],
      ],
      [
        { satT: 280 },
        [
          ['P.MPa', 4.1607, 4],
          ['liquid.rho', 883.58, 2],
          ['liquid.h.kJkg', -289.48, 2],
          ['liquid.s.kJkgK', -1.6792, 4],
          ['liquid.cv.kJkgK', 0.96046, 5],
          ['liquid.cp.kJkgK', 2.8141, 4],
          ['liquid.w', 471.54, 2],
          ['vapor.rho', 121.74, 2],
          ['vapor.h.kJkg', -80.84, 3],
          ['vapor.s.kJkgK', -0.93401, 5],
          ['vapor.cv.kJkgK', 0.92316, 5],
          ['vapor.cp.kJkgK', 2.2769, 4],
          ['vapor.w', 207.72, 2],
        ],
      ],
      [
        { satT: 300 },
        [
          ['P.MPa', 6.7131, 4],
          ['liquid.rho', 679.24, 2],
          ['liquid.h.kJkg', -223.4, 2],
          ['liquid.s.kJkgK', -1.4631, 4],
          ['liquid.cv.kJkgK', 1.1199, 4],
          ['liquid.cp.kJkgK', 8.6979, 4],
          ['liquid.w', 245.67, 2],
          ['vapor.rho', 268.58, 2],
          ['vapor.h.kJkg', -119.7, 2],
          ['vapor.s.kJkgK', -1.1175, 4],
          ['vapor.cv.kJkgK', 1.2476, 4],
          ['vapor.cp.kJkgK', 11.921, 3],
          ['vapor.w', 185.33, 2],
        ],
      ],
      [
        { satT: 304 },
        [
          ['P.MPa', 7.3555, 4],
          ['liquid.rho', 530.3, 2],
          ['liquid.h.kJkg', -188.42, 2],
          ['liquid.s.kJkgK', -1.3509, 4],
          ['liquid.cv.kJkgK', 2.0531, 4],
          ['liquid.cp.kJkgK', 386.88, 2],
          ['liquid.w', 134.14, 2],
          ['vapor.rho', 406.42, 2],
          ['vapor.h.kJkg', -158.84, 2],
          ['vapor.s.kJkgK', -1.2536, 4],
          ['vapor.cv.kJkgK', 2.0679, 4],
          ['vapor.cp.kJkgK', 555.58, 2],
          ['vapor.w', 147.62, 2],
        ],
      ],
      [
        { T: 240, p: 5e4 },
        [
          ['rho', 1.1084, 4],
          ['u.kJkg', -93.125, 3],
          ['h.kJkg', -48.014, 3],
          ['s.kJkgK', -0.04483, 5],
          ['cv.kJkgK', 0.59473, 5],
          ['cp.kJkgK', 0.78815, 5],
          ['w', 243.88, 2],
        ],
      ],
      [
        { T: 1100, p: 1e5 },
        [
          ['rho', 0.48109, 5],
          ['u.kJkg', 675.83, 2],
          ['h.kJkg', 883.69, 2],
          ['s.kJkgK', 1.3827, 4],
          ['cv.kJkgK', 1.0702, 4],
          ['cp.kJkgK', 1.2593, 4],
          ['w', 494.61, 2],
        ],
      ],
      [
        { T: 280, p: 5e5 },
        [
          ['rho', 9.7568, 4],
          ['u.kJkg', -71.84, 3],
          ['h.kJkg', -20.594, 3],
          ['s.kJkgK', -0.36761, 5],
          ['cv.kJkgK', 0.65255, 5],
          ['cp.kJkgK', 0.87063, 5],
          ['w', 257.27, 2],
        ],
      ],
      [
        { T: 230, p: 1e6 },
        [
          ['rho', 1128.97, 2],
          ['u.kJkg', -401.07, 2],
          ['h.kJkg', -400.19, 2],
          ['s.kJkgK', -2.1006, 4],
          ['cv.kJkgK', 0.9568, 5],
          ['cp.kJkgK', 1.9959, 4],
          ['w', 879.82, 2],
        ],
      ],
      [
        { T: 290, p: 5e6 },
        [
          ['rho', 148.41, 2],
          ['u.kJkg', -115.58, 2],
          ['h.kJkg', -81.892, 3],
          ['s.kJkgK', -0.95959, 5],
          ['cv.kJkgK', 0.94334, 5],
          ['cp.kJkgK', 2.5783, 4],
          ['w', 207.56, 2],
        ],
      ],
      [
        { T: 480, p: 1e7 },
        [
          ['rho', 119.65, 2],
          ['u.kJkg', 50.083, 3],
          ['h.kJkg', 133.66, 2],
          ['s.kJkgK', -0.48595, 5],
          ['cv.kJkgK', 0.84672, 5],
          ['cp.kJkgK', 1.1732, 4],
          ['w', 328.74, 2],
        ],
      ],
      [
        { T: 226.679, p: 5e7 },
        [
          ['rho', 1229.78, 2],
          ['u.kJkg', -430.79, 2],
          ['h.kJkg', -390.13, 2],
          ['s.kJkgK', -2.2377, 4],
          ['cv.kJkgK', 0.99951, 5],
          ['cp.kJkgK', 1.7735, 4],
          ['w', 1146.9, 1],
        ],
      ],
      [
        { T: 1100, p: 1e8 },
        [
          ['rho', 371.36, 2],
          ['u.kJkg', 617.86, 2],
          ['h.kJkg', 887.14, 2],
          ['s.kJkgK', 0.03152, 5],
          ['cv.kJkgK', 1.0931, 4],
          ['cp.kJkgK', 1.3544, 4],
          ['w', 675.48, 2],
        ],
      ],
      [
        { T: 327.673, p: 8e8 },
        [
          ['rho', 1495.7, 2],
          ['u.kJkg', -369.91, 2],
          ['h.kJkg', 164.96, 2],
          ['s.kJkgK', -2.1926, 4],
          ['cv.kJkgK', 1.1961, 4],
          ['cp.kJkgK', 1.5477, 4],
          ['w', 2052.8, 1],
        ],
      ],
    ],
  },
  {
    fluid: 'Nitrogen',
    source:
      'R. Span, E. W. Lemmon, R. T Jacobsen, W. Wagner, A. Yokozeki, J. Phys. Chem. Ref. Data 29 (2000) 1361, saturation table (p. 1403) and single-phase table (p. 1410)',
    cas: '7727-37-9',
    rows: [
      [
        { satT: 63.151 },
        [
          ['P.MPa', 0.01252, 5],
          ['liquid.rhoM', 30.957, 3],
          ['liquid.hM.Jmol', -4222.6, 1],
          ['liquid.sM.JmolK', 67.951, 3],
          ['liquid.cvM.JmolK', 32.95, 2],
          ['liquid.cpM.JmolK', 56.03, 2],
          ['liquid.w', 995.3, 1],
          ['vapor.rhoM', 0.02407, 5],
          ['vapor.hM.Jmol', 1814.7, 1],
          ['vapor.sM.JmolK', 163.55, 2],
          ['vapor.cvM.JmolK', 21.01, 2],
          ['vapor.cpM.JmolK', 29.65, 2],
          ['vapor.w', 161.1, 1],
        ],
      ],
      [
        { satT: 80 },
        [
          ['P.MPa', 0.13687, 5],
          ['liquid.rhoM', 28.341, 3],
          ['liquid.hM.Jmol', -3265.7, 1],
          ['liquid.sM.JmolK', 81.317, 3],
          ['liquid.cvM.JmolK', 29.95, 2],
          ['liquid.cpM.JmolK', 57.58, 2],
          ['liquid.w', 824.4, 1],
          ['vapor.rhoM', 0.21737, 5],
          ['vapor.hM.Jmol', 2215.8, 1],
          ['vapor.sM.JmolK', 149.84, 2],
          ['vapor.cvM.JmolK', 21.78, 2],
          ['vapor.cpM.JmolK', 32.07, 2],
          ['vapor.w', 176.7, 1],
        ],
      ],
      [
        { satT: 100 },
        [
          ['P.MPa', 0.77827, 5],
          ['liquid.rhoM', 24.608, 3],
          ['liquid.hM.Jmol', -2050.8, 1],
          ['liquid.sM.JmolK', 94.576, 3],
          ['liquid.cvM.JmolK', 27.54, 2],
          ['liquid.cpM.JmolK', 64.93, 2],
          ['liquid.w', 605.2, 1],
          ['vapor.rhoM', 1.1409, 4],
          ['vapor.hM.Jmol', 2458.6, 1],
          ['vapor.sM.JmolK', 139.67, 2],
          ['vapor.cvM.JmolK', 23.95, 2],
          ['vapor.cpM.JmolK', 42.09, 2],
          ['vapor.w', 183.3, 1],
        ],
      ],
      [
        { satT: 120 },
        [
          ['P.MPa', 2.51058, 5],
          ['liquid.rhoM', 18.682, 3],
          ['liquid.hM.Jmol', -500.6, 2],
          ['liquid.sM.JmolK', 107.89, 2],
          ['liquid.cvM.JmolK', 28.31, 2],
          ['liquid.cpM.JmolK', 126.3, 1],
          ['liquid.w', 317.3, 1],
          ['vapor.rhoM', 4.4653, 4],
          ['vapor.hM.Jmol', 2077.8, 1],
          ['vapor.sM.JmolK', 129.38, 2],
          ['vapor.cvM.JmolK', 30.77, 2],
          ['vapor.cpM.JmolK', 129.7, 1],
          ['vapor.w', 172.6, 1],
        ],
      ],
      [
        { satT: 126 },
        [
          ['P.MPa', 3.36453, 5],
          ['liquid.rhoM', 13.281, 3],
          ['liquid.hM.Jmol', 492.37, 2],
          ['liquid.sM.JmolK', 115.5, 2],
          ['liquid.cvM.JmolK', 43.4, 2],
          ['liquid.cpM.JmolK', 3138.0, 0],
          ['liquid.w', 151.0, 1],
          ['vapor.rhoM', 9.1106, 4],
          ['vapor.hM.Jmol', 1194.9, 1],
          ['vapor.sM.JmolK', 121.08, 2],
          ['vapor.cvM.JmolK', 47.44, 2],
          ['vapor.cpM.JmolK', 4521.0, 0],
          ['vapor.w', 148.4, 1],
        ],
      ],
      [
        { satP: 101325 },
        [
          ['T', 77.355, 3],
          ['liquid.rhoM', 28.775, 3],
          ['liquid.hM.Jmol', -3418.2, 1],
          ['liquid.sM.JmolK', 79.395, 3],
          ['liquid.cvM.JmolK', 30.37, 2],
          ['liquid.cpM.JmolK', 57.19, 2],
          ['liquid.w', 851.4, 1],
          ['vapor.rhoM', 0.16464, 5],
          ['vapor.hM.Jmol', 2161.5, 1],
          ['vapor.sM.JmolK', 151.53, 2],
          ['vapor.cvM.JmolK', 21.61, 2],
          ['vapor.cpM.JmolK', 31.49, 2],
          ['vapor.w', 174.8, 1],
        ],
      ],
      [
        { T: 80, p: 1e5 },
        [
          ['rhoM', 0.15633, 5],
          ['uM.Jmol', 1605.7, 1],
          ['hM.Jmol', 2245.4, 1],
          ['sM.JmolK', 152.7, 2],
          ['cvM.JmolK', 21.48, 2],
          ['cpM.JmolK', 31.15, 2],
          ['w', 178.3, 1],
        ],
      ],
      [
        { T: 90, p: 5e5 },
        [
          ['rhoM', 26.615, 3],
          ['uM.Jmol', -2692.7, 1],
          ['hM.Jmol', -2673.9, 1],
          ['sM.JmolK', 88.13, 3],
          ['cvM.JmolK', 28.57, 2],
          ['cpM.JmolK', 59.87, 2],
          ['w', 720.8, 1],
        ],
      ],
      [
        { T: 63.368, p: 1e6 },
        [
          ['rhoM', 30.986, 3],
          ['uM.Jmol', -4220.4, 1],
          ['hM.Jmol', -4188.1, 1],
          ['sM.JmolK', 67.993, 3],
          ['cvM.JmolK', 32.98, 2],
          ['cpM.JmolK', 55.89, 2],
          ['w', 998.9, 1],
        ],
      ],
      [
        { T: 1000, p: 2e6 },
        [
          ['rhoM', 0.23889, 5],
          ['uM.Jmol', 21800.0, 0],
          ['hM.Jmol', 30172.0, 0],
          ['sM.JmolK', 203.24, 2],
          ['cvM.JmolK', 24.4, 2],
          ['cpM.JmolK', 32.75, 2],
          ['w', 635.5, 1],
        ],
      ],
      [
        { T: 100, p: 5e6 },
        [
          ['rhoM', 25.436, 3],
          ['uM.Jmol', -2217.6, 1],
          ['hM.Jmol', -2021.0, 1],
          ['sM.JmolK', 93.188, 3],
          ['cvM.JmolK', 27.71, 2],
          ['cpM.JmolK', 59.87, 2],
          ['w', 673.2, 1],
        ],
      ],
      [
        { T: 70, p: 1e7 },
        [
          ['rhoM', 30.605, 3],
          ['uM.Jmol', -3944.5, 1],
          ['hM.Jmol', -3617.7, 1],
          ['sM.JmolK', 72.168, 3],
          ['cvM.JmolK', 32.34, 2],
          ['cpM.JmolK', 54.75, 2],
          ['w', 989.6, 1],
        ],
      ],
      [
        { T: 350, p: 2e7 },
        [
          ['rhoM', 6.3552, 4],
          ['uM.Jmol', 6432.4, 1],
          ['hM.Jmol', 9579.5, 1],
          ['sM.JmolK', 150.07, 2],
          ['cvM.JmolK', 21.64, 2],
          ['cpM.JmolK', 34.19, 2],
          ['w', 449.7, 1],
        ],
      ],
      [
        { T: 1000, p: 5e7 },
        [
          ['rhoM', 5.1051, 4],
          ['uM.Jmol', 21447.0, 0],
          ['hM.Jmol', 31241.0, 0],
          ['sM.JmolK', 176.14, 2],
          ['cvM.JmolK', 24.79, 2],
          ['cpM.JmolK', 33.68, 2],
          ['w', 748.9, 1],
        ],
      ],
      [
        { T: 100, p: 1e8 },
        [
          ['rhoM', 31.793, 3],
          ['uM.Jmol', -3136.1, 1],
          ['hM.Jmol', 9.22, 2],
          ['sM.JmolK', 81.024, 3],
          ['cvM.JmolK', 31.89, 2],
          ['cpM.JmolK', 47.93, 2],
          ['w', 1208.0, 0],
        ],
      ],
      [
        { T: 1000, p: 1e9 },
        [
          ['rhoM', 30.189, 3],
          ['uM.Jmol', 22346.0, 0],
          ['hM.Jmol', 55471.0, 0],
          ['sM.JmolK', 149.55, 2],
          ['cvM.JmolK', 29.21, 2],
          ['cpM.JmolK', 36.45, 2],
          ['w', 2002.0, 0],
        ],
      ],
    ],
  },
  {
    fluid: 'Methane',
    source:
      'U. Setzmann, W. Wagner, J. Phys. Chem. Ref. Data 20 (1991) 1061, Table 39 (saturation, p. 1117) and Table 40 (single phase, p. 1119)',
    cas: '74-82-8',
    rows: [
      [
        { satT: 90.694 },
        [
          ['P.MPa', 0.011696, 6],
          ['liquid.rho', 451.48, 2],
          ['liquid.h.kJkg', -982.76, 2],
          ['liquid.s.kJkgK', -7.3868, 4],
          ['liquid.cv.kJkgK', 2.1677, 4],
          ['liquid.cp.kJkgK', 3.3678, 4],
          ['liquid.w', 1538.6, 1],
          ['vapor.rho', 0.25074, 5],
          ['vapor.h.kJkg', -438.5, 2],
          ['vapor.s.kJkgK', -1.3857, 4],
          ['vapor.cv.kJkgK', 1.5735, 4],
          ['vapor.cp.kJkgK', 2.11, 4],
          ['vapor.w', 249.13, 2],
        ],
      ],
      [
        { satT: 100 },
        [
          ['P.MPa', 0.034376, 6],
          ['liquid.rho', 438.89, 2],
          ['liquid.h.kJkg', -951.21, 2],
          ['liquid.s.kJkgK', -7.0562, 4],
          ['liquid.cv.kJkgK', 2.1136, 4],
          ['liquid.cp.kJkgK', 3.4084, 4],
          ['liquid.w', 1452.0, 1],
          ['vapor.rho', 0.67457, 5],
          ['vapor.h.kJkg', -420.73, 2],
          ['vapor.s.kJkgK', -1.7514, 4],
          ['vapor.cv.kJkgK', 1.5887, 4],
          ['vapor.cp.kJkgK', 2.1458, 4],
          ['vapor.w', 260.09, 2],
        ],
      ],
      [
        { satT: 110 },
        [
          ['P.MPa', 0.08813, 6],
          ['liquid.rho', 424.78, 2],
          ['liquid.h.kJkg', -916.75, 2],
          ['liquid.s.kJkgK', -6.729, 4],
          ['liquid.cv.kJkgK', 2.0642, 4],
          ['liquid.cp.kJkgK', 3.4692, 4],
          ['liquid.w', 1354.7, 1],
          ['vapor.rho', 1.5982, 4],
          ['vapor.h.kJkg', -402.92, 2],
          ['vapor.s.kJkgK', -2.0578, 4],
          ['vapor.cv.kJkgK', 1.6108, 4],
          ['vapor.cp.kJkgK', 2.2053, 4],
          ['vapor.w', 270.01, 2],
        ],
      ],
      [
        { satT: 120 },
        [
          ['P.MPa', 0.19143, 5],
          ['liquid.rho', 409.9, 2],
          ['liquid.h.kJkg', -881.54, 2],
          ['liquid.s.kJkgK', -6.4248, 4],
          ['liquid.cv.kJkgK', 2.0196, 4],
          ['liquid.cp.kJkgK', 3.5493, 4],
          ['liquid.w', 1253.5, 1],
          ['vapor.rho', 3.2619, 4],
          ['vapor.h.kJkg', -386.93, 2],
          // biome-ignore lint/suspicious/noApproximativeNumericConstant: a published entropy, not ln 10
          ['vapor.s.kJkgK', -2.303, 4],
          ['vapor.cv.kJkgK', 1.639, 4],
          ['vapor.cp.kJkgK', 2.293, 4],
          ['vapor.w', 277.76, 2],
        ],
      ],
      [
        { satT: 140 },
        [
          ['P.MPa', 0.64118, 5],
          ['liquid.rho', 376.87, 2],
          ['liquid.h.kJkg', -807.74, 2],
          ['liquid.s.kJkgK', -5.8653, 4],
          ['liquid.cv.kJkgK', 1.9452, 4],
          ['liquid.cp.kJkgK', 3.8129, 4],
          ['liquid.w', 1037.7, 1],
          ['vapor.rho', 10.152, 3],
          ['vapor.h.kJkg', -362.6, 2],
          ['vapor.s.kJkgK', -2.6857, 4],
          ['vapor.cv.kJkgK', 1.7172, 4],
          ['vapor.cp.kJkgK', 2.6108, 4],
          ['vapor.w', 285.93, 2],
        ],
      ],
      [
        { satT: 160 },
        [
          ['P.MPa', 1.5921, 4],
          ['liquid.rho', 336.31, 2],
          ['liquid.h.kJkg', -726.14, 2],
          ['liquid.s.kJkgK', -5.3391, 4],
          ['liquid.cv.kJkgK', 1.9037, 4],
          ['liquid.cp.kJkgK', 4.4354, 4],
          ['liquid.w', 795.43, 2],
          ['vapor.rho', 25.382, 3],
          ['vapor.h.kJkg', -353.87, 2],
          ['vapor.s.kJkgK', -3.0124, 4],
          ['vapor.cv.kJkgK', 1.8473, 4],
          ['vapor.cp.kJkgK', 3.4189, 4],
          ['vapor.w', 283.01, 2],
        ],
      ],
      [
        { satT: 180 },
        [
          ['P.MPa', 3.2852, 4],
          ['liquid.rho', 276.23, 2],
          ['liquid.h.kJkg', -625.0, 2],
          ['liquid.s.kJkgK', -4.7778, 4],
          ['liquid.cv.kJkgK', 1.9669, 4],
          ['liquid.cp.kJkgK', 7.2923, 4],
          ['liquid.w', 497.01, 2],
          ['vapor.rho', 61.375, 3],
          ['vapor.h.kJkg', -378.11, 2],
          ['vapor.s.kJkgK', -3.4062, 4],
          ['vapor.cv.kJkgK', 2.1404, 4],
          ['vapor.cp.kJkgK', 7.574, 4],
          ['vapor.w', 266.04, 2],
        ],
      ],
      [
        { satT: 190 },
        [
          ['P.MPa', 4.5186, 4],
          ['liquid.rho', 200.78, 2],
          ['liquid.h.kJkg', -532.67, 2],
          ['liquid.s.kJkgK', -4.3082, 4],
          ['liquid.cv.kJkgK', 2.6022, 4],
          ['liquid.cp.kJkgK', 94.012, 3],
          ['liquid.w', 250.31, 2],
          ['vapor.rho', 125.18, 2],
          ['vapor.h.kJkg', -451.91, 2],
          ['vapor.s.kJkgK', -3.8831, 4],
          ['vapor.cv.kJkgK', 2.8546, 4],
          ['vapor.cp.kJkgK', 140.81, 2],
          ['vapor.w', 238.55, 2],
        ],
      ],
      [
        { T: 90.698, p: 2.5e4 },
        [
          ['rho', 451.48, 2],
          ['u.kJkg', -982.78, 2],
          ['h.kJkg', -982.73, 2],
          ['s.kJkgK', -7.3868, 4],
          ['cv.kJkgK', 2.1677, 4],
          ['cp.kJkgK', 3.3677, 4],
          ['w', 1538.7, 1],
        ],
      ],
      [
        { T: 115, p: 1e5 },
        [
          ['rho', 1.7341, 4],
          ['u.kJkg', -450.34, 2],
          ['h.kJkg', -392.68, 2],
          ['s.kJkgK', -2.0301, 4],
          ['cv.kJkgK', 1.6041, 4],
          ['cp.kJkgK', 2.1957, 4],
          ['w', 276.16, 2],
        ],
      ],
      [
        { T: 110, p: 101325 },
        [
          ['rho', 424.79, 2],
          ['u.kJkg', -916.97, 2],
          ['h.kJkg', -916.74, 2],
          ['s.kJkgK', -6.7291, 4],
          ['cv.kJkgK', 2.0642, 4],
          ['cp.kJkgK', 3.4691, 4],
          ['w', 1354.8, 1],
        ],
      ],
      [
        { T: 620, p: 5e5 },
        [
          ['rho', 1.5546, 4],
          ['u.kJkg', 564.67, 2],
          ['h.kJkg', 886.3, 2],
          ['s.kJkgK', 1.1384, 4],
          ['cv.kJkgK', 2.8272, 4],
          ['cp.kJkgK', 3.3497, 4],
          ['w', 617.61, 2],
        ],
      ],
      [
        { T: 150, p: 1e6 },
        [
          ['rho', 15.536, 3],
          ['u.kJkg', -418.03, 2],
          ['h.kJkg', -353.67, 2],
          ['s.kJkgK', -2.8198, 4],
          ['cv.kJkgK', 1.7556, 4],
          ['cp.kJkgK', 2.8402, 4],
          ['w', 287.76, 2],
        ],
      ],
      [
        { T: 200, p: 5e6 },
        [
          ['rho', 87.764, 3],
          ['u.kJkg', -423.51, 2],
          ['h.kJkg', -366.54, 2],
          ['s.kJkgK', -3.467, 4],
          ['cv.kJkgK', 1.9965, 4],
          ['cp.kJkgK', 7.2726, 4],
          ['w', 291.29, 2],
        ],
      ],
      [
        { T: 100, p: 1e7 },
        [
          ['rho', 446.02, 2],
          ['u.kJkg', -957.84, 2],
          ['h.kJkg', -935.42, 2],
          ['s.kJkgK', -7.1235, 4],
          ['cv.kJkgK', 2.1389, 4],
          ['cp.kJkgK', 3.3437, 4],
          ['w', 1525.7, 1],
        ],
      ],
      [
        { T: 600, p: 5e7 },
        [
          ['rho', 134.47, 2],
          ['u.kJkg', 400.24, 2],
          ['h.kJkg', 772.07, 2],
          ['s.kJkgK', -1.5109, 4],
          ['cv.kJkgK', 2.8062, 4],
          ['cp.kJkgK', 3.5887, 4],
          ['w', 786.69, 2],
        ],
      ],
      [
        { T: 420, p: 1e8 },
        [
          ['rho', 277.63, 2],
          ['u.kJkg', -165.97, 2],
          ['h.kJkg', 194.23, 2],
          ['s.kJkgK', -3.1391, 4],
          ['cv.kJkgK', 2.257, 4],
          ['cp.kJkgK', 3.1894, 4],
          ['w', 1096.5, 1],
        ],
      ],
      [
        { T: 620, p: 1e9 },
        [
          ['rho', 503.16, 2],
          ['u.kJkg', 350.14, 2],
          ['h.kJkg', 2337.56, 2],
          ['s.kJkgK', -3.1888, 4],
          ['cv.kJkgK', 3.2951, 4],
          ['cp.kJkgK', 3.8115, 4],
          ['w', 2915.6, 1],
        ],
      ],
    ],
  },
  {
    fluid: 'Ammonia',
    source:
      'K. Gao, J. Wu, I. H. Bell, E. W. Lemmon, Thermodynamic Properties of Ammonia for Temperatures from the Melting Line to 725 K and Pressures to 1000 MPa, J. Phys. Chem. Ref. Data (2020), Table 7 (p. 24)',
    cas: '7664-41-7',
    rows: [
      [
        { T: 200, molL: 50 },
        [
          ['P.MPa', 555.5631, 4],
          ['cvM.JmolK', 56.15976, 5],
          ['cpM.JmolK', 74.22262, 5],
          ['w', 2940.432, 3],
          ['hM.kJmol', 9.541211, 6],
          ['sM.JmolK', -11.61817, 5],
        ],
      ],
      [
        { T: 250, molL: 42 },
        [
          ['P.MPa', 108.7263, 4],
          ['cvM.JmolK', 50.25907, 5],
          ['cpM.JmolK', 72.04765, 5],
          ['w', 2049.168, 3],
          ['hM.kJmol', 5.715934, 6],
          ['sM.JmolK', 14.26145, 5],
        ],
      ],
      [
        { T: 320, molL: 35 },
        [
          ['P.MPa', 27.63275, 5],
          ['cvM.JmolK', 46.95882, 5],
          ['cpM.JmolK', 78.92022, 5],
          ['w', 1370.446, 3],
          ['hM.kJmol', 9.831787, 6],
          ['sM.JmolK', 36.0605, 5],
        ],
      ],
      [
        { T: 380, molL: 26 },
        [
          ['P.MPa', 8.174128, 6],
          ['cvM.JmolK', 47.82965, 5],
          ['cpM.JmolK', 125.1971, 4],
          ['w', 668.5456, 4],
          ['hM.kJmol', 15.45317, 5],
          ['sM.JmolK', 53.81385, 5],
        ],
      ],
      [
        { T: 405, molL: 16.5 },
        [
          ['P.MPa', 11.25287, 5],
          ['cvM.JmolK', 77.13442, 5],
          ['cpM.JmolK', 4137.738, 3],
          ['w', 247.2696, 4],
          ['hM.kJmol', 20.13541, 5],
          ['sM.JmolK', 65.30611, 5],
        ],
      ],
      [
        { T: 406, molL: 13.696 },
        [
          ['P.MPa', 11.45246, 5],
          ['cvM.JmolK', 103.0508, 4],
          ['cpM.JmolK', 52943.69, 2],
          ['w', 225.4458, 4],
          ['hM.kJmol', 21.3041, 5],
          ['sM.JmolK', 68.15535, 5],
        ],
      ],
      [
        { T: 275, molL: 0.2 },
        [
          ['P.MPa', 0.4270652, 7],
          ['cvM.JmolK', 32.60471, 5],
          ['cpM.JmolK', 45.39676, 5],
          ['w', 402.6253, 4],
          ['hM.kJmol', 27.46383, 5],
          ['sM.JmolK', 104.2956, 4],
        ],
      ],
      [
        { T: 325, molL: 0.95 },
        [
          ['P.MPa', 2.093496, 6],
          ['cvM.JmolK', 40.6866, 5],
          ['cpM.JmolK', 65.25439, 5],
          ['w', 402.2104, 4],
          ['hM.kJmol', 27.92681, 5],
          ['sM.JmolK', 94.19375, 5],
        ],
      ],
      [
        { T: 375, molL: 3 },
        [
          ['P.MPa', 6.044096, 6],
          ['cvM.JmolK', 48.9189, 5],
          ['cpM.JmolK', 111.3738, 4],
          ['w', 379.43, 4],
          ['hM.kJmol', 27.45404, 5],
          ['sM.JmolK', 86.36105, 5],
        ],
      ],
      [
        { T: 405, molL: 10 },
        [
          ['P.MPa', 11.2204, 5],
          ['cvM.JmolK', 77.15007, 5],
          ['cpM.JmolK', 2051.793, 3],
          ['w', 286.2398, 4],
          ['hM.kJmol', 23.20689, 5],
          ['sM.JmolK', 72.89756, 5],
        ],
      ],
      [
        { T: 520, molL: 1.5 },
        [
          ['P.MPa', 5.96888, 6],
          ['cvM.JmolK', 36.52118, 5],
          ['cpM.JmolK', 49.38647, 5],
          ['w', 538.8044, 4],
          ['hM.kJmol', 36.23166, 5],
          ['sM.JmolK', 106.6103, 4],
        ],
      ],
      [
        { T: 520, molL: 13.696 },
        [
          ['P.MPa', 35.83377, 5],
          ['cvM.JmolK', 43.66588, 5],
          ['cpM.JmolK', 98.36082, 5],
          ['w', 555.4454, 4],
          ['hM.kJmol', 28.71997, 5],
          ['sM.JmolK', 80.49762, 5],
        ],
      ],
      [
        { T: 520, molL: 20 },
        [
          ['P.MPa', 56.3075, 5],
          ['cvM.JmolK', 43.81573, 5],
          ['cpM.JmolK', 87.32996, 5],
          ['w', 741.1842, 4],
          ['hM.kJmol', 26.48937, 5],
          ['sM.JmolK', 73.89537, 5],
        ],
      ],
      [
        { T: 620, molL: 5.5 },
        [
          ['P.MPa', 24.38934, 5],
          ['cvM.JmolK', 41.29819, 5],
          ['cpM.JmolK', 61.81978, 5],
          ['w', 588.0372, 4],
          ['hM.kJmol', 38.40927, 5],
          ['sM.JmolK', 100.0682, 4],
        ],
      ],
      [
        { T: 620, molL: 14 },
        [
          ['P.MPa', 58.52754, 5],
          ['cvM.JmolK', 43.50218, 5],
          ['cpM.JmolK', 75.46188, 5],
          ['w', 692.5867, 4],
          ['hM.kJmol', 34.49909, 5],
          ['sM.JmolK', 87.78122, 5],
        ],
      ],
      // Table 7's last row (620 K, 45 mol/dm3: 1355.431 MPa) is above the equation's 1000 MPa, which stateAt refuses.
    ],
  },
  {
    fluid: 'Hydrogen',
    source:
      'J. W. Leachman, R. T Jacobsen, S. G. Penoncello, E. W. Lemmon, J. Phys. Chem. Ref. Data 38 (2009) 721, Table 14 (normal hydrogen, saturation, p. 746)',
    cas: '1333-74-0',
    // Table 14's liquid entropies differ from the file's equation by up to 2e-6 of the column's scale
    // (s′ at 20 K: −0.174348 against −0.17429 kJ/(kg·K)); every other value agrees to 1e-6.
    relative: 3e-6,
    rows: [
      [
        { satT: 13.957 },
        [
          ['P.kPa', 7.358, 3],
          ['liquid.rho', 77.004, 3],
          ['vapor.rho', 0.12985, 5],
          ['liquid.h.kJkg', -53.926, 3],
          ['vapor.h.kJkg', 399.83, 2],
          ['liquid.s.kJkgK', -3.0723, 4],
          ['vapor.s.kJkgK', 29.438, 3],
          ['liquid.cv.kJkgK', 5.1616, 4],
          ['vapor.cv.kJkgK', 6.2433, 4],
          ['liquid.cp.kJkgK', 7.0212, 4],
          ['vapor.cp.kJkgK', 10.564, 3],
          ['liquid.w', 1269.2, 1],
          ['vapor.w', 307.14, 2],
        ],
      ],
      [
        { satT: 20 },
        [
          ['P.kPa', 90.717, 3],
          ['liquid.rho', 71.265, 3],
          ['vapor.rho', 1.2059, 4],
          ['liquid.h.kJkg', -3.6672, 4],
          ['vapor.h.kJkg', 446.64, 2],
          ['liquid.s.kJkgK', -0.17429, 5],
          ['vapor.s.kJkgK', 22.341, 3],
          ['liquid.cv.kJkgK', 5.6369, 4],
          ['vapor.cv.kJkgK', 6.4343, 4],
          ['liquid.cp.kJkgK', 9.5697, 4],
          ['vapor.cp.kJkgK', 11.892, 3],
          ['liquid.w', 1129.1, 1],
          ['vapor.w', 354.31, 2],
        ],
      ],
      [
        { satT: 30 },
        [
          ['P.kPa', 804.32, 2],
          ['liquid.rho', 54.538, 3],
          ['vapor.rho', 10.445, 3],
          ['liquid.h.kJkg', 140.3, 2],
          ['vapor.h.kJkg', 441.19, 2],
          ['liquid.s.kJkgK', 5.0661, 4],
          ['vapor.s.kJkgK', 15.096, 3],
          ['liquid.cv.kJkgK', 6.3535, 4],
          ['vapor.cv.kJkgK', 7.4945, 4],
          ['liquid.cp.kJkgK', 25.284, 3],
          ['vapor.cp.kJkgK', 30.425, 3],
          ['liquid.w', 713.07, 2],
          ['vapor.w', 379.07, 2],
        ],
      ],
      [
        { satT: 33 },
        [
          ['P.kPa', 1269.3, 1],
          ['liquid.rho', 38.079, 3],
          ['vapor.rho', 24.637, 3],
          ['liquid.h.kJkg', 255.69, 2],
          ['vapor.h.kJkg', 343.4, 2],
          ['liquid.s.kJkgK', 8.3842, 4],
          ['vapor.s.kJkgK', 11.042, 3],
          ['liquid.cv.kJkgK', 7.6982, 4],
          ['vapor.cv.kJkgK', 8.5381, 4],
          ['liquid.cp.kJkgK', 484.58, 2],
          ['vapor.cp.kJkgK', 604.72, 2],
          ['liquid.w', 423.53, 2],
          ['vapor.w', 373.93, 2],
        ],
      ],
    ],
  },
];

const M_PER_UNIT: Record<string, number> = { MPa: 1e6, kPa: 1e3, kJkg: 1e3, kJkgK: 1e3, Jmol: 1, JmolK: 1, kJmol: 1e3 };
const PROPERTY = { h: 'enthalpy', u: 'internalEnergy', s: 'entropy', cv: 'cv', cp: 'cp' } as const;

/** The model's value of one named property, in the table's unit. */
function modelValue(
  fluid: ReferenceFluid,
  name: string,
  states: Record<string, FluidState>,
  saturation?: { temperature: number; pressure: number },
): number {
  const parts = name.split('.');
  const phase = parts[0] === 'liquid' || parts[0] === 'vapor' ? (parts.shift() as string) : 'single';
  const [quantity, unit] = parts;
  const state = states[phase];
  if (quantity === 'P') return (saturation?.pressure ?? state.pressure) / M_PER_UNIT[unit];
  if (quantity === 'T') return saturation!.temperature;
  if (quantity === 'rho') return state.density * fluid.molarMass;
  if (quantity === 'rhoM') return state.density / 1e3;
  if (quantity === 'w') return state.speedOfSound;
  const molar = quantity.endsWith('M');
  const value = state[PROPERTY[quantity.replace(/M$/, '') as keyof typeof PROPERTY]];
  return molar ? value / M_PER_UNIT[unit] : value / fluid.molarMass / M_PER_UNIT[unit];
}

function statesFor(
  fluid: ReferenceFluid,
  inputs: Inputs,
): { states: Record<string, FluidState>; saturation?: SaturationState } {
  if ('satT' in inputs || 'satP' in inputs) {
    // Published triple-point rows may name the triple point to fewer digits than the file's Ttriple.
    const sat =
      'satT' in inputs
        ? saturationAtTemperature(fluid, Math.max(inputs.satT, fluid.tripleTemperature))
        : saturationAtPressure(fluid, inputs.satP);
    return {
      saturation: sat,
      states: {
        liquid: stateAt(fluid, sat.temperature, sat.liquidDensity),
        vapor: stateAt(fluid, sat.temperature, sat.vaporDensity),
      },
    };
  }
  const density = 'p' in inputs ? densityAt(fluid, inputs.T, inputs.p) : inputs.molL * 1e3;
  return { states: { single: stateAt(fluid, inputs.T, density) } };
}

describe('reference equations against the check values printed in their papers', () => {
  for (const table of PAPER_TABLES) {
    it(`${table.fluid}: ${table.source}`, () => {
      const fluid = referenceFluidByCas(table.cas);
      assert.ok(fluid, `${table.fluid} (${table.cas}) is not on hand`);
      const compared = table.rows.flatMap(([inputs, checks]) => {
        const { states, saturation } = statesFor(fluid, inputs);
        return checks.map(([name, published, decimals]) => ({
          name,
          at: JSON.stringify(inputs),
          published,
          decimals,
          model: modelValue(fluid, name, states, saturation),
          // h and u share one offset (u = h − p/ρ), s has its own.
          column: /(^|\.)(hM?|uM?)\./.test(name) ? 'h' : /(^|\.)sM?\./.test(name) ? 's' : undefined,
        }));
      });
      const offset: Record<string, number> = {};
      const scale: Record<string, number> = {};
      for (const column of ['h', 's']) {
        const of = compared.filter((c) => c.column === column);
        offset[column] = of.reduce((sum, c) => sum + c.model - c.published, 0) / Math.max(1, of.length);
        scale[column] = Math.max(0, ...of.map((c) => Math.abs(c.published)));
      }
      for (const c of compared) {
        const model = c.column ? c.model - offset[c.column] : c.model;
        const tolerance =
          10 ** -c.decimals + (table.relative ?? 1e-6) * (c.column ? scale[c.column] : Math.abs(c.published));
        assert.ok(
          Math.abs(model - c.published) <= tolerance,
          `${table.fluid} ${c.name} at ${c.at}: ${model} vs ${c.published} (±${tolerance})`,
        );
      }
    });
  }
});

/**
 * Files whose critical point is not the equation's own (the paper's measured or rounded values, or an
 * equation not constrained to them): p(Tc, ρc) differs from pc by more than 0.1 %, by at most this much.
 */
const CRITICAL_POINT_NOT_CONSTRAINED: Record<string, number> = {
  Acetone: 0.002,
  Benzene: 0.003,
  CarbonMonoxide: 0.0015,
  CycloPropane: 0.002,
  Fluorine: 0.013,
  IsoButene: 0.0015,
  R11: 0.0025,
  R114: 0.002,
  R123: 0.003,
  R13: 0.003,
  R14: 0.007,
  R236FA: 0.003,
  R41: 0.002,
  'cis-2-Butene': 0.0025,
  'n-Heptane': 0.002,
  'trans-2-Butene': 0.0025,
};

/** p = ρRT(1 + δαʳδ), without stateAt's refusal of states inside the spinodal. */
function pressureAt(f: ReferenceFluid, t: number, rho: number): number {
  const delta = rho / f.reducing.density;
  return rho * f.gasConstant * t * (1 + delta * residual(f.residual, delta, f.reducing.temperature / t).d);
}

describe('every reference fluid: critical point and ancillary equations', () => {
  it('p(Tc, ρc) is the file’s critical pressure within 0.1 % (named exceptions: their stated bound)', () => {
    const off: string[] = [];
    for (const f of referenceFluids().fluids) {
      const p = pressureAt(f, f.critical.temperature, f.critical.density);
      const bound = CRITICAL_POINT_NOT_CONSTRAINED[f.name] ?? 1e-3;
      if (!(Math.abs(p / f.critical.pressure - 1) <= bound)) off.push(`${f.name}: ${p} vs ${f.critical.pressure} Pa`);
    }
    assert.deepEqual(off, []);
  });
  it('Psat agrees with the file’s ancillary equation within 1 % at 0.9·Tc, and at the triple point where the ancillaries hold there', () => {
    const off: string[] = [];
    let tripleChecked = 0;
    for (const f of referenceFluids().fluids) {
      const a = f.ancillaries;
      const near = 0.9 * f.critical.temperature;
      const pNear = saturationAtTemperature(f, near).pressure;
      // R1234yf's pressure ancillary is 1.6 % below its equation at 0.9·Tc.
      const bound = f.name === 'R1234yf' ? 0.02 : 0.01;
      if (!(Math.abs(pNear / ancillaryValue(a.pressure!, near) - 1) <= bound))
        off.push(`${f.name} at ${near} K: ${pNear}`);
      // At the triple point several ancillaries are outside the range they were fitted to (their p and
      // ρ″ disagree with each other by tens of percent); compare where they agree, p ≈ ρ″RT within 1 %.
      const t = f.tripleTemperature;
      const pGuess = ancillaryValue(a.pressure!, t);
      if (!(Math.abs(pGuess / (ancillaryValue(a.vaporDensity, t) * f.gasConstant * t) - 1) <= 0.01)) continue;
      tripleChecked++;
      const p = saturationAtTemperature(f, t).pressure;
      if (!(Math.abs(p / pGuess - 1) <= 0.01)) off.push(`${f.name} at the triple point ${t} K: ${p} vs ${pGuess} Pa`);
    }
    assert.deepEqual(off, []);
    assert.ok(tripleChecked >= 60, `${tripleChecked} fluids compared at the triple point`);
  });
});
