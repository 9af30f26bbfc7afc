import assert from 'node:assert/strict';
import { test } from 'node:test';
import { realCubicRoots } from './cubic.ts';

const close = (actual: number[], expected: number[], tolerance: number) => {
  assert.equal(actual.length, expected.length, `roots ${actual} vs ${expected}`);
  actual.forEach((x, i) => {
    assert.ok(Math.abs(x - expected[i]) <= tolerance, `root ${i}: ${x} vs ${expected[i]}`);
  });
};

test('three distinct roots, ascending: (x − 1)(x − 2)(x − 3)', () => {
  close(realCubicRoots(-6, 11, -6), [1, 2, 3], 1e-13);
});

test('one real root: x³ + x + 1 has x = −0.6823278038280193', () => {
  close(realCubicRoots(0, 1, 1), [-0.6823278038280193], 1e-15);
});

test('a double root is reported once: (x − 1)²(x + 2)', () => {
  close(realCubicRoots(0, -3, 2), [-2, 1], 1e-7);
});

test('a triple root: (x − 2)³', () => {
  close(realCubicRoots(-6, 12, -8), [2], 1e-5);
});

test('roots of very different size keep their relative precision: (x − 1e-6)(x − 0.5)(x − 1)', () => {
  const roots = realCubicRoots(-(1e-6 + 1.5), 1e-6 * 1.5 + 0.5, -0.5e-6);
  assert.ok(Math.abs(roots[0] / 1e-6 - 1) < 1e-12, String(roots[0]));
  close(roots.slice(1), [0.5, 1], 1e-14);
});
