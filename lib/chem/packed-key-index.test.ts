import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PackedKeyIndex } from './packed-key-index.ts';

test('every key finds its value and nothing else is found, whatever the keys share', () => {
  const keys = ['', 'a', 'ab', 'abc', 'b', 'ba', 'ethanol', 'ethanol2', 'éthanol', 'α-pinene', 'z', '7732-18-5', 'Ab'];
  const map = new Map(keys.map((key, i) => [key, i * 4 + 1] as const));
  const index = PackedKeyIndex.from(map);
  assert.equal(index.size, keys.length);
  for (const [key, value] of map) assert.equal(index.get(key), value, key);
  for (const absent of ['abcd', 'aa', 'c', 'ethano', 'ethanol3', 'α', '7732-18-', ' a', 'A'])
    assert.equal(index.get(absent), undefined, absent);
  assert.deepEqual(
    [...index.entries()].map(([key]) => key),
    [...keys].sort(),
  );
});

test('an empty index finds nothing; a value that is not a 32-bit integer is refused', () => {
  assert.equal(PackedKeyIndex.from(new Map()).get('a'), undefined);
  assert.throws(() => PackedKeyIndex.from(new Map([['a', 2 ** 31]])), /"a" is not a 32-bit integer/);
  assert.throws(() => PackedKeyIndex.from(new Map([['a', 0.5]])), RangeError);
});

test('it agrees with a Map on many random keys', () => {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const alphabet = 'abc-1é';
  const word = () =>
    Array.from({ length: 1 + Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
      '',
    );
  const map = new Map<string, number>();
  for (let i = 0; i < 2000; i++) map.set(word(), i);
  const index = PackedKeyIndex.from(map);
  for (let i = 0; i < 5000; i++) {
    const probe = word();
    assert.equal(index.get(probe), map.get(probe), probe);
  }
});
