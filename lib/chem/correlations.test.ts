import assert from 'node:assert/strict';
import { it } from 'node:test';
import { readCorrelations } from './correlations.ts';

const sources: Record<string, string> = { book: 'A Book, 2001' };
const resolve = (id: unknown) =>
  sources[id as string] ??
  (() => {
    throw new Error(`unknown source ${id}`);
  })();
const fail = (message: string): never => {
  throw new Error(message);
};

it('reads Antoine, Wagner and Cp correlations, resolving their sources', () => {
  const read = readCorrelations(
    {
      vapor_pressure: [
        {
          equation: 'wagner_25_5',
          coefficients: { a: -7, b: 1, c: -2, d: -3 },
          critical_temperature: 500,
          critical_pressure: 50,
          valid_range: { min: 250, max: 500, unit: 'K' },
          source: 'book',
        },
        {
          equation: 'antoine',
          coefficients: { A: 4, B: 1200, C: -50 },
          valid_range: { min: 270, max: 370, unit: 'K' },
          source: 'book',
        },
      ],
      ideal_gas_cp: {
        equation: 'cp_poly4',
        coefficients: [4, 1e-3, 1e-5, -1e-8, 1e-11],
        valid_range: { min: 50, max: 1000, unit: 'K' },
        source: 'book',
      },
    },
    resolve,
    fail,
  );
  assert.equal(read.vapor_pressure?.[0].equation, 'wagner_25_5');
  assert.equal(read.vapor_pressure?.[1].source, 'A Book, 2001');
  assert.deepEqual(read.ideal_gas_cp?.coefficients, [4, 1e-3, 1e-5, -1e-8, 1e-11]);
});

it('refuses unknown equations, missing coefficients, bad ranges and stray fields, saying where', () => {
  const cases: [unknown, RegExp][] = [
    [
      {
        vapor_pressure: [
          { equation: 'dippr101', coefficients: {}, valid_range: { min: 1, max: 2, unit: 'K' }, source: 'book' },
        ],
      },
      /vapor_pressure\[0\]: equation must be/,
    ],
    [
      {
        vapor_pressure: [
          {
            equation: 'antoine',
            coefficients: { A: 1, B: 2 },
            valid_range: { min: 1, max: 2, unit: 'K' },
            source: 'book',
          },
        ],
      },
      /coefficient C/,
    ],
    [
      {
        vapor_pressure: [
          {
            equation: 'antoine',
            coefficients: { A: 1, B: 2, C: 3 },
            valid_range: { min: 300, max: 200, unit: 'K' },
            source: 'book',
          },
        ],
      },
      /valid_range/,
    ],
    [
      {
        vapor_pressure: [
          {
            equation: 'wagner_25_5',
            coefficients: { a: 1, b: 1, c: 1, d: 1 },
            valid_range: { min: 1, max: 2, unit: 'K' },
            source: 'book',
          },
        ],
      },
      /critical_temperature/,
    ],
    [
      {
        ideal_gas_cp: {
          equation: 'cp_poly4',
          coefficients: [1, 2, 3],
          valid_range: { min: 1, max: 2, unit: 'K' },
          source: 'book',
        },
      },
      /five finite numbers/,
    ],
    [{ liquid_density: {} }, /unknown field "liquid_density"/],
  ];
  for (const [raw, message] of cases) assert.throws(() => readCorrelations(raw, resolve, fail), message);
});
