/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions, each edit costing 1),
 * counted in Unicode code points so that "乙纯" is one edit from "乙醇".
 * Returns `limit + 1` as soon as the distance is known to exceed `limit`: suggestions only need
 * close matches, and the cut keeps a long query from costing O(n·m) against every name.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (Math.abs(s.length - t.length) > limit) return limit + 1;

  let before = new Array<number>(t.length + 1).fill(0); // row i-2
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j); // row i-1
  for (let i = 1; i <= s.length; i++) {
    const current = new Array<number>(t.length + 1);
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[t.length], limit + 1);
}
