import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { chemsepFile } from './chemsep-layer.ts';
import { findCompound } from './lookup.ts';
import { findPseudoPure } from './pseudo-pure.ts';

const air = findPseudoPure('air');
const skip = air ? false : 'Air.json or the mixture table is not on hand';

test('air is found by its name, the mixture table’s synonym, the fluid file’s alias and its CAS number', {
  skip,
}, () => {
  for (const q of ['air', 'AIR', ' Air ', 'atmosphere', 'R729', 'R-729', '132259-10-0'])
    assert.equal(findPseudoPure(q), air, q);
  assert.equal(findPseudoPure('nitrogen'), undefined);
  assert.equal(findPseudoPure('natural gas'), undefined);
});

test('its CAS number is the one ChemSep 8.32 gives its Air', { skip }, () => {
  const xml = readFileSync(chemsepFile(), 'utf8');
  const entry = xml.split('<compound>').find((c) => c.includes('<CompoundID name="Name"  value="Air" />'));
  assert.ok(entry?.includes(`<CAS name="CAS number"  value="${air!.cas}" />`));
});

test('its composition is the mixture table’s, by catalogue name, and its molar mass that composition’s', {
  skip,
}, () => {
  assert.deepEqual(air!.composition.components, [
    { name: 'nitrogen', cas: '7727-37-9', mole_fraction: 0.7812 },
    { name: 'argon', cas: '7440-37-1', mole_fraction: 0.0092 },
    { name: 'oxygen', cas: '7782-44-7', mole_fraction: 0.2096 },
  ]);
  assert.match(air!.composition.source, /REFPROP manual/);
  // The equation's molar mass (Lemmon et al. 2000: 28.9586 g/mol, the file's viscosity block) is Σ x·M of that
  // composition; the 2021 atomic weights move it by 2e-4 g/mol.
  assert.equal(air!.molecularWeight.value, 28.9586);
  assert.equal(air!.fluid.molarMass, 0.0289586);
  const sum = air!.composition.components.reduce(
    (s, c) => s + c.mole_fraction * findCompound(c.cas).compound.properties.molecular_weight!.value,
    0,
  );
  assert.ok(Math.abs(sum - 28.9586) < 5e-4, `Σ x·M = ${sum}`);
  assert.match(air!.molecularWeight.source, /Lemmon/);
});

test('its reference fluid answers under its own name and CAS number, as a pseudo-pure mixture', { skip }, () => {
  assert.equal(air!.fluid.name, 'air');
  assert.equal(air!.fluid.cas, '132259-10-0');
  assert.ok(air!.fluid.pseudoPure);
});
