/** `value` rounded to `digits` decimal places (for reported values whose precision the method sets). */
export function roundTo(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
