/**
 * The built-in compound data checked with RDKit: each SMILES parses, and its structure agrees with the
 * stored formula, InChIKey and (formula-based) molecular weight. Every check lists all offending
 * compounds, so a data edit shows all its consequences at once.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ATOMIC_WEIGHTS } from './atomic-weights.ts';
import { allCompounds, type Compound } from './compounds.ts';
import { molarMass } from './formula.ts';
import { descriptors, type InchiIdentity, inchiIdentity, loadRDKit, withMolecule } from './rdkit.ts';

interface Seen {
  compound: Compound;
  /** Why RDKit refused the SMILES, when it did. */
  error?: string;
  canonical?: string;
  identity?: InchiIdentity;
  /** RDKit's average molecular weight, g/mol (its own atomic weights). */
  amw?: number;
}

const compounds = allCompounds();
let seen: Seen[] = [];

before(async () => {
  await loadRDKit();
  seen = compounds.map((compound) => {
    try {
      return withMolecule(compound.smiles, (mol) => ({
        compound,
        canonical: mol.get_smiles(),
        identity: inchiIdentity(mol),
        amw: descriptors(mol).amw,
      }));
    } catch (error) {
      return { compound, error: (error as Error).message };
    }
  });
});

function expectNone(what: string, problems: string[]) {
  assert.deepEqual(problems, [], `${problems.length} compound(s): ${what}\n${problems.join('\n')}`);
}

const parsed = () => seen.filter((s) => s.error === undefined);

test('RDKit parses every SMILES', () => {
  expectNone(
    'SMILES RDKit cannot parse',
    seen.filter((s) => s.error !== undefined).map((s) => `${s.compound.name}: ${s.error}`),
  );
});

test('InChI can represent every structure', () => {
  expectNone(
    'no InChI',
    parsed()
      .filter((s) => !s.identity)
      .map((s) => `${s.compound.name}: ${s.compound.smiles}`),
  );
});

test('the formula from RDKit (InChI formula layer) is the stored Hill formula', () => {
  expectNone(
    'formula disagrees with the SMILES',
    parsed()
      .filter((s) => s.identity && s.identity.formula !== s.compound.formula)
      .map(
        (s) =>
          `${s.compound.name}: SMILES ${s.compound.smiles} is ${s.identity!.formula}, the data says ${s.compound.formula}`,
      ),
  );
});

test('a stored InChIKey is the one RDKit computes from the SMILES', () => {
  expectNone(
    'InChIKey disagrees with the SMILES',
    parsed()
      .filter((s) => s.compound.inchikey !== undefined && s.identity && s.identity.inchikey !== s.compound.inchikey)
      .map(
        (s) =>
          `${s.compound.name}: stored ${s.compound.inchikey}, RDKit ${s.identity!.inchikey} from ${s.compound.smiles}`,
      ),
  );
});

/**
 * The molecular weight of the structure, from RDKit's element counts (hydrogens included) and the
 * project's IUPAC 2021 atomic weights, against the stored one (computed from the stored formula).
 * RDKit's own average weight is not compared directly: MinimalLib carries older atomic weights
 * (Cl 35.453 against IUPAC 2021's conventional 35.45), which alone put CCl4 0.012 g/mol apart.
 */
test('the molecular weight of the structure agrees with the formula-based one within 0.01 g/mol', () => {
  const problems: string[] = [];
  for (const s of parsed()) {
    if (!s.identity) continue;
    const stored = s.compound.properties.molecular_weight?.value;
    const unknown = Object.keys(s.identity.elementCounts).filter((el) => !Object.hasOwn(ATOMIC_WEIGHTS, el));
    if (unknown.length > 0) {
      problems.push(`${s.compound.name}: no IUPAC 2021 weight for ${unknown.join(', ')} in atomic-weights.ts`);
      continue;
    }
    const fromStructure = molarMass(s.identity.elementCounts);
    if (stored === undefined || Math.abs(fromStructure - stored) > 0.01) {
      problems.push(
        `${s.compound.name}: structure ${fromStructure.toFixed(3)} g/mol (RDKit's own weights: ${s.amw!.toFixed(3)}), from the formula ${stored} g/mol`,
      );
    }
  }
  expectNone('molecular weight disagrees', problems);
});

test('no two compounds have the same structure (RDKit canonical SMILES)', () => {
  const byStructure = new Map<string, string[]>();
  for (const s of parsed()) byStructure.set(s.canonical!, [...(byStructure.get(s.canonical!) ?? []), s.compound.name]);
  expectNone(
    'structure shared',
    [...byStructure]
      .filter(([, names]) => names.length > 1)
      .map(([smiles, names]) => `${names.join(', ')}: all ${smiles}`),
  );
});
