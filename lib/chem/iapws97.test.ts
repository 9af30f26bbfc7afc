import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  IF97_SATURATION_PRESSURE_RANGE,
  IF97_SATURATION_TEMPERATURE_RANGE,
  if97SaturationPressure,
  if97SaturationTemperature,
} from './iapws97.ts';

const relative = (actual: number, expected: number) => Math.abs(actual - expected) / Math.abs(expected);

// IAPWS R7-97(2012), Table 35: computer-program verification values of Eq. 30 (given to 9 digits).
it('Psat(T) matches IF97 Table 35 to 1e-8 relative', () => {
  for (const [t, pMPa] of [
    [300, 0.353658941e-2],
    [500, 0.263889776e1],
    [600, 0.123443146e2],
  ] as const) {
    const p = if97SaturationPressure(t);
    assert.ok(relative(p, pMPa * 1e6) < 1e-8, `Psat(${t} K) = ${p} Pa, expected ${pMPa * 1e6}`);
  }
});

// Table 35's values at the digits usually quoted: Psat(300 K) = 3536.59 Pa, Psat(500 K) = 2.638898 MPa (±1e-6 relative).
it('Psat(300 K) = 3536.59 Pa and Psat(500 K) = 2.638898 MPa', () => {
  assert.ok(Math.abs(if97SaturationPressure(300) - 3536.59) < 0.005);
  assert.ok(relative(if97SaturationPressure(500), 2.638898e6) < 1e-6);
});

// IAPWS R7-97(2012), Table 36: verification values of Eq. 31, among them Tsat(1 MPa) = 453.035632 K.
it('Tsat(P) matches IF97 Table 36 to 1e-6 K', () => {
  for (const [pMPa, t] of [
    [0.1, 0.372755919e3],
    [1, 0.453035632e3],
    [10, 0.584149488e3],
  ] as const) {
    const actual = if97SaturationTemperature(pMPa * 1e6);
    assert.ok(Math.abs(actual - t) < 1e-6, `Tsat(${pMPa} MPa) = ${actual} K, expected ${t}`);
  }
  assert.ok(Math.abs(if97SaturationTemperature(1e6) - 453.0356) < 1e-4);
});

it('the range ends are the triple-point region and the critical point, and Eqs. 30 and 31 invert each other', () => {
  assert.ok(
    relative(if97SaturationPressure(IF97_SATURATION_TEMPERATURE_RANGE.min), IF97_SATURATION_PRESSURE_RANGE.min) < 1e-5,
  );
  assert.ok(
    relative(if97SaturationPressure(IF97_SATURATION_TEMPERATURE_RANGE.max), IF97_SATURATION_PRESSURE_RANGE.max) < 1e-5,
  );
  for (let t = 275; t < 647; t += 25)
    assert.ok(Math.abs(if97SaturationTemperature(if97SaturationPressure(t)) - t) < 1e-4, `round trip at ${t} K`);
});
