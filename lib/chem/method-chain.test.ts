import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  type ChainMethod,
  celsiusHint,
  chooseMethod,
  extrapolationAllowance,
  pressureUnitHint,
  temperatureReach,
} from './method-chain.ts';
import { ToolError } from './tool.ts';

const method = (name: string, min: number, max: number): ChainMethod => {
  const range = { min, max };
  return { name, range, reach: temperatureReach(range) };
};
// A narrow fit (40 K wide: allowance 2 K), a wide one (400 K: allowance 10 K), an estimate.
const narrow = method('the narrow fit', 200, 240);
const wide = method('the wide fit', 300, 700);
const estimate: ChainMethod = { ...method('the estimate', 241, 650), estimate: true };
const chain = [narrow, wide, estimate];
const q = { quantity: 'temperature', unit: 'K' as const, what: 'the test property', hint: celsiusHint };
const refusal = (message: RegExp) => (e: unknown) =>
  e instanceof ToolError && e.code === 'out_of_range' && message.test(e.message);

it('the allowance is the smaller of 10 K and 5 % of the range’s width', () => {
  assert.equal(extrapolationAllowance(narrow.range), 2);
  assert.equal(extrapolationAllowance(wide.range), 10);
  assert.deepEqual(temperatureReach(wide.range, { min: 0, max: 705 }), { min: 290, max: 705 });
});

it('the first method whose range holds the state answers, without a warning', () => {
  assert.deepEqual(chooseMethod(chain, [220], q), { method: narrow, warnings: [] });
  assert.deepEqual(chooseMethod(chain, [400], q), { method: wide, warnings: [] });
  // 245 K only the estimate reaches.
  assert.deepEqual(chooseMethod(chain, [245], q), { method: estimate, warnings: [] });
});

it('measured data before estimates: a fit a little past its range beats an estimate whose range holds', () => {
  // 241.5 K is within the narrow fit's 2 K allowance; the estimate holds it, but is only an estimate.
  assert.deepEqual(chooseMethod(chain, [241.5], q), {
    method: narrow,
    warnings: ['241.5 K is 1.5 K above the range of the narrow fit (200–240 K); the value is extrapolated.'],
  });
  // Among measured methods, one whose range holds beats an earlier one that would be extrapolated.
  const later = method('the later fit', 241, 260);
  assert.deepEqual(chooseMethod([narrow, later, estimate], [241.5], q), { method: later, warnings: [] });
});

it('else the first within its allowance answers, with a warning naming its range', () => {
  assert.deepEqual(chooseMethod(chain, [198.5], q), {
    method: narrow,
    warnings: ['198.5 K is 1.5 K below the range of the narrow fit (200–240 K); the value is extrapolated.'],
  });
  assert.deepEqual(chooseMethod(chain, [706], q).warnings, [
    '706 K is 6 K above the range of the wide fit (300–700 K); the value is extrapolated.',
  ]);
});

it('several points must all be held by one method, each warned about where extrapolated', () => {
  // 220 K only the narrow fit holds, 400 K only the wide one: none holds both, none reaches both.
  assert.throws(() => chooseMethod(chain, [220, 400], q), refusal(/holds at 220 K and 400 K/));
  // The wide fit reaches 298 K (2 K below its range) and holds 400 K: it answers before the estimate.
  const both = chooseMethod(chain, [298, 400], q);
  assert.equal(both.method, wide);
  assert.deepEqual(both.warnings, [
    '298 K is 2 K below the range of the wide fit (300–700 K); the value is extrapolated.',
  ]);
  // 260 K no fit reaches: the estimate, which holds both, answers.
  assert.deepEqual(chooseMethod(chain, [260, 400], q), { method: estimate, warnings: [] });
  assert.deepEqual(chooseMethod([wide], [295, 705], q).warnings.length, 2);
});

it('past every allowance: out_of_range naming every range, and °C where the number would fit', () => {
  assert.throws(
    () => chooseMethod(chain, [25], q),
    refusal(
      /the narrow fit: 200–240 K; the wide fit: 300–700 K; the estimate: 241–650 K\. .*overall 200–700 K\); did you mean 25 °C \(298\.15 K\)\?/,
    ),
  );
  assert.throws(() => chooseMethod(chain, [800], q), refusal(/holds at 800 K.*overall 200–700 K\)\.$/));
  assert.equal(celsiusHint(800, chain), undefined);
  const pascal = [method('the curve', 1e3, 1e6)];
  assert.match(pressureUnitHint(2, pascal) ?? '', /did you mean 2 bar \(200000 Pa\)/);
  assert.match(pressureUnitHint(20, [method('the curve', 1e3, 5e4)]) ?? '', /did you mean 20 kPa/);
});
