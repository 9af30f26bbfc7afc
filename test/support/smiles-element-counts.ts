/**
 * Element counts (implicit hydrogens included) of a SMILES string, written only so the data tests
 * can check each compound's formula against its SMILES without a cheminformatics toolkit. It follows
 * OpenSMILES for what the data uses: organic-subset and bracket atoms, bonds - = # $ : / \,
 * branches, ring closures (digits and %nn) and dot-disconnected parts. An aromatic atom counts one
 * extra bond toward its valence (benzene's c has two ring bonds and one H). Not a validator:
 * chirality, isotopes and atom classes are skipped, and stray characters throw.
 */
const ORGANIC_VALENCES: Record<string, number[]> = {
  B: [3],
  C: [4],
  N: [3, 5],
  O: [2],
  P: [3, 5],
  S: [2, 4, 6],
  F: [1],
  Cl: [1],
  Br: [1],
  I: [1],
};
const BOND_ORDERS: Record<string, number> = { '-': 1, '/': 1, '\\': 1, ':': 1, '=': 2, '#': 3, $: 4 };

interface Atom {
  symbol: string;
  aromatic: boolean;
  /** Hydrogens written in brackets; undefined for organic-subset atoms, whose H is implicit. */
  bracketH?: number;
  bondSum: number;
}

export function smilesElementCounts(smiles: string): Record<string, number> {
  const atoms: Atom[] = [];
  const branches: number[] = [];
  const rings = new Map<string, { atom: number; order?: number }>();
  let previous = -1;
  let pendingOrder: number | undefined;
  let i = 0;

  const addAtom = (atom: Atom) => {
    atoms.push(atom);
    const index = atoms.length - 1;
    if (previous >= 0) bond(previous, index, pendingOrder);
    previous = index;
    pendingOrder = undefined;
  };
  const bond = (a: number, b: number, order = 1) => {
    atoms[a].bondSum += order;
    atoms[b].bondSum += order;
  };

  while (i < smiles.length) {
    const ch = smiles[i];
    if (ch === '[') {
      const end = smiles.indexOf(']', i);
      const match = /^\d*(se|as|[A-Z][a-z]?|[bcnops])(@*)(H\d*)?/.exec(smiles.slice(i + 1, end));
      if (end < 0 || !match) throw new Error(`unsupported bracket atom at ${i} in ${smiles}`);
      const aromatic = /^[a-z]/.test(match[1]);
      const symbol = aromatic ? match[1][0].toUpperCase() + match[1].slice(1) : match[1];
      const bracketH = match[3] ? Number(match[3].slice(1) || '1') : 0;
      addAtom({ symbol, aromatic, bracketH, bondSum: 0 });
      i = end + 1;
    } else if (/[A-Z]/.test(ch)) {
      const symbol = smiles.startsWith('Cl', i) ? 'Cl' : smiles.startsWith('Br', i) ? 'Br' : ch;
      if (!(symbol in ORGANIC_VALENCES)) throw new Error(`${symbol} must be bracketed in ${smiles}`);
      addAtom({ symbol, aromatic: false, bondSum: 0 });
      i += symbol.length;
    } else if (/[bcnops]/.test(ch)) {
      addAtom({ symbol: ch.toUpperCase(), aromatic: true, bondSum: 0 });
      i++;
    } else if (ch in BOND_ORDERS) {
      pendingOrder = BOND_ORDERS[ch];
      i++;
    } else if (ch === '(') {
      branches.push(previous);
      i++;
    } else if (ch === ')') {
      previous = branches.pop() ?? -1;
      i++;
    } else if (ch === '.') {
      previous = -1;
      i++;
    } else if (/[0-9%]/.test(ch)) {
      const label = ch === '%' ? smiles.slice(i, i + 3) : ch;
      const open = rings.get(label);
      if (open) {
        bond(open.atom, previous, pendingOrder ?? open.order);
        rings.delete(label);
      } else {
        rings.set(label, { atom: previous, order: pendingOrder });
      }
      pendingOrder = undefined;
      i += label.length;
    } else {
      throw new Error(`unexpected "${ch}" at ${i} in ${smiles}`);
    }
  }
  if (rings.size > 0 || branches.length > 0) throw new Error(`unclosed ring or branch in ${smiles}`);

  const counts: Record<string, number> = {};
  const add = (symbol: string, n: number) => {
    if (n > 0) counts[symbol] = (counts[symbol] ?? 0) + n;
  };
  for (const atom of atoms) {
    add(atom.symbol, 1);
    if (atom.bracketH !== undefined) {
      add('H', atom.bracketH);
    } else {
      const used = atom.bondSum + (atom.aromatic ? 1 : 0);
      const valence = ORGANIC_VALENCES[atom.symbol].find((v) => v >= used);
      add('H', valence === undefined ? 0 : valence - used);
    }
  }
  return counts;
}
