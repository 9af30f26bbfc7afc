import assert from 'node:assert/strict';
import { it } from 'node:test';
import { R } from './constants.ts';
import { massDensityFromMolarVolume, rackettMolarVolume } from './liquid-density.ts';

// The API Technical Data Book's propane case ( as in the chemicals library's Rackett
// example): Tc 369.83 K, Pc 42.48 bar, ZRA 0.2763 at 272.04 K → 531.3 kg/m3 (±0.5 kg/m3).
it('Rackett with ZRA: propane at 272.04 K is 531.3 kg/m3', () => {
  const v = rackettMolarVolume(369.83, 42.48e5, 0.2763, 272.04);
  assert.ok(Math.abs(v - 8.2992e-5) < 0.0005e-5, `V = ${v} m3/mol`);
  const rho = massDensityFromMolarVolume(v, 44.097e-3);
  assert.ok(Math.abs(rho - 531.3) < 0.5, `ρ = ${rho} kg/m3`);
});

it('at Tc the Rackett volume is the critical volume Z·R·Tc/Pc, and it falls as the liquid cools', () => {
  assert.ok(Math.abs(rackettMolarVolume(500, 40e5, 0.27, 500) - (0.27 * R * 500) / 40e5) < 1e-15);
  assert.ok(rackettMolarVolume(500, 40e5, 0.27, 300) < rackettMolarVolume(500, 40e5, 0.27, 400));
  assert.throws(() => rackettMolarVolume(500, 40e5, 0.27, 501), RangeError);
});
