/**
 * Molecular formulas: parse, write in Hill order, and sum atomic weights.
 * Accepts element symbols with counts and nested (…)/[…] groups, e.g. "C2H5OH", "CH3(CH2)4CH3".
 */
import { ATOMIC_WEIGHTS } from './atomic-weights.ts';

export type ElementCounts = Readonly<Record<string, number>>;

/**
 * Element counts of `text`, or undefined when it is not a formula made of known elements
 * (unknown symbol, stray character, unbalanced brackets, zero count).
 */
export function parseFormula(text: string): ElementCounts | undefined {
  const counts: Record<string, number> = {};
  const stack: Record<string, number>[] = [counts];
  const closing: string[] = [];
  let i = 0;

  const readCount = (): number | undefined => {
    const digits = /^[1-9][0-9]*/.exec(text.slice(i));
    if (!digits) return /^0/.test(text.slice(i)) ? undefined : 1;
    i += digits[0].length;
    return Number(digits[0]);
  };

  while (i < text.length) {
    const ch = text[i];
    if (ch === '(' || ch === '[') {
      stack.push({});
      closing.push(ch === '(' ? ')' : ']');
      i++;
    } else if (ch === ')' || ch === ']') {
      if (closing.pop() !== ch) return undefined;
      i++;
      const group = stack.pop()!;
      const n = readCount();
      if (n === undefined || Object.keys(group).length === 0) return undefined;
      const into = stack[stack.length - 1];
      for (const [el, c] of Object.entries(group)) into[el] = (into[el] ?? 0) + c * n;
    } else {
      const two = text.slice(i, i + 2);
      const symbol = /^[A-Z][a-z]$/.test(two) && Object.hasOwn(ATOMIC_WEIGHTS, two) ? two : ch;
      if (!Object.hasOwn(ATOMIC_WEIGHTS, symbol)) return undefined;
      i += symbol.length;
      const n = readCount();
      if (n === undefined) return undefined;
      const into = stack[stack.length - 1];
      into[symbol] = (into[symbol] ?? 0) + n;
    }
  }
  if (closing.length > 0 || Object.keys(counts).length === 0) return undefined;
  return counts;
}

/**
 * Hill system order (Hill, J. Am. Chem. Soc. 22 (1900) 478): with carbon, C first, then H, then the
 * rest alphabetically; without carbon, all symbols alphabetically. A count of 1 is not written.
 */
export function hillFormula(counts: ElementCounts): string {
  const symbols = Object.keys(counts);
  const ordered =
    'C' in counts
      ? ['C', ...('H' in counts ? ['H'] : []), ...symbols.filter((s) => s !== 'C' && s !== 'H').sort()]
      : symbols.sort();
  return ordered.map((s) => (counts[s] === 1 ? s : `${s}${counts[s]}`)).join('');
}

/** Molar mass, g/mol: sum of IUPAC 2021 standard atomic weights (see atomic-weights.ts). */
export function molarMass(counts: ElementCounts): number {
  let sum = 0;
  for (const [symbol, n] of Object.entries(counts)) sum += ATOMIC_WEIGHTS[symbol] * n;
  return sum;
}
