import assert from 'node:assert/strict';
import { test } from 'node:test';
import { smilesElementCounts } from './smiles-element-counts.ts';

test('adds implicit hydrogens to organic-subset atoms', () => {
  assert.deepEqual(smilesElementCounts('CCO'), { C: 2, H: 6, O: 1 });
  assert.deepEqual(smilesElementCounts('CC(C)=O'), { C: 3, H: 6, O: 1 });
  assert.deepEqual(smilesElementCounts('C#C'), { C: 2, H: 2 });
  assert.deepEqual(smilesElementCounts('ClC(Cl)Cl'), { Cl: 3, C: 1, H: 1 });
  assert.deepEqual(smilesElementCounts('O=S=O'), { O: 2, S: 1 });
});

test('handles rings and aromatic atoms', () => {
  assert.deepEqual(smilesElementCounts('C1CCCCC1'), { C: 6, H: 12 });
  assert.deepEqual(smilesElementCounts('c1ccccc1'), { C: 6, H: 6 });
  assert.deepEqual(smilesElementCounts('Cc1ccccc1'), { C: 7, H: 8 });
  assert.deepEqual(smilesElementCounts('c1cc[nH]c1'), { C: 4, H: 5, N: 1 });
});

test('takes bracket atoms as written, hydrogens and charges included', () => {
  assert.deepEqual(smilesElementCounts('[H][H]'), { H: 2 });
  assert.deepEqual(smilesElementCounts('[C-]#[O+]'), { C: 1, O: 1 });
  assert.deepEqual(smilesElementCounts('[Ar]'), { Ar: 1 });
  assert.deepEqual(smilesElementCounts('[NH4+].[Cl-]'), { N: 1, H: 4, Cl: 1 });
});

test('refuses what it does not understand', () => {
  assert.throws(() => smilesElementCounts('C1CC'));
  assert.throws(() => smilesElementCounts('Xe'));
  assert.throws(() => smilesElementCounts('C?C'));
});
