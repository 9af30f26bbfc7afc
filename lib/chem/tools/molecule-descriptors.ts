/**
 * service_molecule_descriptors: what RDKit computes from a SMILES string alone: identity (canonical
 * SMILES, formula, InChI, InChIKey), masses, Wildman–Crippen logP, Ertl TPSA, Lipinski donors and
 * acceptors, rotatable bonds, rings, Lipinski's rule of five, and optionally an SVG depiction.
 */
import { ATOMIC_WEIGHTS, ATOMIC_WEIGHTS_SOURCE } from '../atomic-weights.ts';
import { molarMass } from '../formula.ts';
import {
  descriptors,
  formalCharge,
  inchiIdentity,
  loadRDKit,
  MAX_SMILES_LENGTH,
  RDKIT_SOURCE,
  withMolecule,
} from '../rdkit.ts';
import { roundTo } from '../round.ts';
import type { ChemTool, JsonSchema } from '../tool.ts';
import {
  NAMED_COMPOUND_SCHEMA,
  type NamedCompound,
  STRUCTURE_NAME_ARGUMENT,
  structureFrom,
} from './structure-argument.ts';

export interface MoleculeDescriptorsArgs {
  smiles?: string;
  compound_name?: string;
  include_svg?: boolean;
}

export interface Descriptor {
  value: number;
  unit: string;
  method: string;
  source: string;
}

export interface RuleCheck {
  value: number;
  limit: number;
  pass: boolean;
}

export interface MoleculeDescriptorsResult {
  smiles: string;
  compound?: NamedCompound;
  canonical_smiles: string;
  formula?: string;
  formal_charge: number;
  inchi?: string;
  inchikey?: string;
  descriptors: Record<DescriptorKey, Descriptor>;
  lipinski_rule_of_five: {
    molecular_weight: RuleCheck;
    clogp: RuleCheck;
    h_bond_donors: RuleCheck;
    h_bond_acceptors: RuleCheck;
    violations: number;
    passes: boolean;
    rule: string;
    source: string;
  };
  svg?: string;
  warnings: string[];
}

const SOURCES = {
  crippen:
    'S. A. Wildman, G. M. Crippen, "Prediction of Physicochemical Parameters by Atomic Contributions", J. Chem. Inf. Comput. Sci. 39 (1999) 868–873',
  ertl: 'P. Ertl, B. Rohde, P. Selzer, "Fast Calculation of Molecular Polar Surface Area as a Sum of Fragment-Based Contributions and Its Application to the Prediction of Drug Transport Properties", J. Med. Chem. 43 (2000) 3714–3717',
  lipinski:
    'C. A. Lipinski, F. Lombardo, B. W. Dominy, P. J. Feeney, "Experimental and computational approaches to estimate solubility and permeability in drug discovery and development settings", Adv. Drug Deliv. Rev. 23 (1997) 3–25',
};

type DescriptorKey =
  | 'molecular_weight'
  | 'exact_mass'
  | 'clogp'
  | 'tpsa'
  | 'h_bond_donors'
  | 'h_bond_acceptors'
  | 'rotatable_bonds'
  | 'ring_count'
  | 'aromatic_ring_count'
  | 'heavy_atom_count';

const DESCRIPTORS: Record<DescriptorKey, { unit: string; description: string }> = {
  molecular_weight: { unit: 'g/mol', description: 'Average molar mass.' },
  exact_mass: {
    unit: 'g/mol',
    description: 'Monoisotopic mass: each atom as its most abundant isotope (or as the isotope the SMILES labels).',
  },
  clogp: {
    unit: '',
    description: 'Calculated octanol/water log P, Wildman–Crippen atom contributions (dimensionless).',
  },
  tpsa: { unit: 'Å2', description: 'Topological polar surface area (Ertl), N and O contributions.' },
  h_bond_donors: { unit: '', description: 'Lipinski hydrogen-bond donors: H atoms on N and O.' },
  h_bond_acceptors: { unit: '', description: 'Lipinski hydrogen-bond acceptors: N and O atoms.' },
  rotatable_bonds: { unit: '', description: 'Rotatable bonds, RDKit strict definition.' },
  ring_count: { unit: '', description: 'Rings in the smallest set of smallest rings.' },
  aromatic_ring_count: { unit: '', description: 'Aromatic rings.' },
  heavy_atom_count: { unit: '', description: 'Atoms other than hydrogen.' },
};

const descriptorSchema = (key: DescriptorKey): JsonSchema => ({
  type: 'object',
  description: `${DESCRIPTORS[key].description} Unit: ${DESCRIPTORS[key].unit || 'dimensionless'}.`,
  properties: {
    value: { type: 'number' },
    unit: { type: 'string', const: DESCRIPTORS[key].unit },
    method: { type: 'string', minLength: 1 },
    source: { type: 'string', minLength: 1 },
  },
  required: ['value', 'unit', 'method', 'source'],
  additionalProperties: false,
});

const ruleSchema = (what: string): JsonSchema => ({
  type: 'object',
  description: `${what}: value, the rule's upper limit, and whether value <= limit.`,
  properties: { value: { type: 'number' }, limit: { type: 'number' }, pass: { type: 'boolean' } },
  required: ['value', 'limit', 'pass'],
  additionalProperties: false,
});

const outputSchema: JsonSchema = {
  type: 'object',
  properties: {
    smiles: { type: 'string', description: 'The SMILES as given, or that of compound_name.' },
    compound: NAMED_COMPOUND_SCHEMA,
    canonical_smiles: { type: 'string', description: 'RDKit canonical SMILES.' },
    formula: {
      type: 'string',
      description:
        'Molecular formula in Hill order (from the InChI formula layer; charge given separately). Omitted when InChI cannot represent the structure.',
    },
    formal_charge: { type: 'integer', description: 'Sum of the formal charges of all atoms.' },
    inchi: { type: 'string', pattern: '^InChI=1S/', description: 'Standard InChI.' },
    inchikey: { type: 'string', pattern: '^[A-Z]{14}-[A-Z]{10}-[A-Z]$', description: 'Standard InChIKey.' },
    descriptors: {
      type: 'object',
      properties: Object.fromEntries(
        Object.keys(DESCRIPTORS).map((key) => [key, descriptorSchema(key as DescriptorKey)]),
      ),
      required: Object.keys(DESCRIPTORS),
      additionalProperties: false,
    },
    lipinski_rule_of_five: {
      type: 'object',
      description: 'Lipinski rule of five: poor oral absorption is more likely when more than one rule fails.',
      properties: {
        molecular_weight: ruleSchema('Molecular weight, g/mol, limit 500'),
        clogp: ruleSchema('Calculated logP (Wildman–Crippen), limit 5'),
        h_bond_donors: ruleSchema('H-bond donors, limit 5'),
        h_bond_acceptors: ruleSchema('H-bond acceptors, limit 10'),
        violations: { type: 'integer', minimum: 0, maximum: 4, description: 'Number of rules that fail.' },
        passes: { type: 'boolean', description: 'True when at most one rule fails.' },
        rule: { type: 'string' },
        source: { type: 'string' },
      },
      required: [
        'molecular_weight',
        'clogp',
        'h_bond_donors',
        'h_bond_acceptors',
        'violations',
        'passes',
        'rule',
        'source',
      ],
      additionalProperties: false,
    },
    svg: { type: 'string', description: '2D depiction as an SVG document (only when include_svg is true).' },
    warnings: { type: 'array', items: { type: 'string' }, description: 'Caveats for using the values.' },
  },
  required: ['smiles', 'canonical_smiles', 'formal_charge', 'descriptors', 'lipinski_rule_of_five', 'warnings'],
  additionalProperties: false,
};

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_molecule_descriptorsArguments',
  properties: {
    smiles: {
      type: 'string',
      title: 'Smiles',
      minLength: 1,
      maxLength: MAX_SMILES_LENGTH,
      description:
        'SMILES string of the molecule, e.g. "CC(=O)Oc1ccccc1C(=O)O" (aspirin). Disconnected parts ("[Na+].[Cl-]") are taken together. Give this or compound_name.',
    },
    compound_name: STRUCTURE_NAME_ARGUMENT,
    include_svg: {
      type: 'boolean',
      title: 'Include Svg',
      default: false,
      description: 'Also return a 2D depiction as an SVG document (default false).',
    },
  },
  // smiles or compound_name, exactly one: checked by run() with a message saying so (a top-level
  // oneOf is refused by some clients' function-calling schemas).
  required: [],
  minProperties: 1,
  additionalProperties: false,
};

/** SVG size, px: big enough to read a drug-sized molecule, small enough to send inline. */
const SVG_WIDTH = 400;
const SVG_HEIGHT = 300;

function rule(value: number, limit: number): RuleCheck {
  return { value, limit, pass: value <= limit };
}

export async function moleculeDescriptors({
  smiles: givenSmiles,
  compound_name,
  include_svg = false,
}: MoleculeDescriptorsArgs): Promise<MoleculeDescriptorsResult> {
  const structure = structureFrom('smiles', givenSmiles, compound_name);
  const smiles = 'given' in structure ? structure.given : structure.smiles;
  const compound = 'given' in structure ? undefined : structure.compound;
  await loadRDKit();
  return withMolecule(smiles, (mol) => {
    const d = descriptors(mol);
    const identity = inchiIdentity(mol);
    const warnings: string[] = [];

    // Average molar mass from the project's IUPAC 2021 weights, so it matches the other tools; RDKit's
    // own weights where the formula cannot say (isotope labels, elements outside the table).
    const counts = identity?.elementCounts;
    const iupac = counts && !identity.isotopic && Object.keys(counts).every((el) => Object.hasOwn(ATOMIC_WEIGHTS, el));
    const molecularWeight: Descriptor = iupac
      ? {
          value: roundTo(molarMass(counts), 3),
          unit: 'g/mol',
          method: 'sum of IUPAC 2021 standard atomic weights over the formula',
          source: ATOMIC_WEIGHTS_SOURCE,
        }
      : {
          value: roundTo(d.amw, 3),
          unit: 'g/mol',
          method: 'RDKit average molecular weight (isotope labels honoured)',
          source: RDKIT_SOURCE,
        };

    if (!identity) warnings.push('InChI cannot represent this structure, so formula, InChI and InChIKey are omitted.');
    if (identity?.isotopic)
      warnings.push('The formula names elements, not isotopes; masses include the isotope labels.');
    if (mol.get_smiles().includes('.'))
      warnings.push('The SMILES has several disconnected parts; every descriptor is for all of them together.');
    const charge = formalCharge(mol);
    if (charge !== 0)
      warnings.push(
        `Net formal charge ${charge > 0 ? '+' : ''}${charge}: the formula and masses are those of the ion (electron mass neglected).`,
      );

    const value = (key: DescriptorKey, v: number, method: string, source: string): Descriptor => ({
      value: v,
      unit: DESCRIPTORS[key].unit,
      method,
      source,
    });
    const result: Record<DescriptorKey, Descriptor> = {
      molecular_weight: molecularWeight,
      exact_mass: value(
        'exact_mass',
        roundTo(d.exactmw, 6),
        'RDKit monoisotopic mass (most abundant isotope of each element)',
        RDKIT_SOURCE,
      ),
      clogp: value(
        'clogp',
        roundTo(d.CrippenClogP, 4),
        'Wildman–Crippen atom-contribution logP (RDKit CrippenClogP)',
        SOURCES.crippen,
      ),
      tpsa: value(
        'tpsa',
        roundTo(d.tpsa, 2),
        'Ertl topological polar surface area, N and O contributions only (RDKit)',
        SOURCES.ertl,
      ),
      h_bond_donors: value(
        'h_bond_donors',
        d.lipinskiHBD,
        'Lipinski definition: number of H atoms bonded to N or O (RDKit NumLipinskiHBD)',
        SOURCES.lipinski,
      ),
      h_bond_acceptors: value(
        'h_bond_acceptors',
        d.lipinskiHBA,
        'Lipinski definition: number of N and O atoms (RDKit NumLipinskiHBA)',
        SOURCES.lipinski,
      ),
      rotatable_bonds: value(
        'rotatable_bonds',
        d.NumRotatableBonds,
        'RDKit strict definition: single, non-ring bonds between non-terminal heavy atoms, not counting bonds to triple-bonded atoms, to CX3 and tert-butyl groups, or amide/ester C(=X)–X bonds',
        RDKIT_SOURCE,
      ),
      ring_count: value('ring_count', d.NumRings, 'RDKit smallest set of smallest rings (SSSR)', RDKIT_SOURCE),
      aromatic_ring_count: value('aromatic_ring_count', d.NumAromaticRings, 'RDKit aromaticity model', RDKIT_SOURCE),
      heavy_atom_count: value('heavy_atom_count', d.NumHeavyAtoms, 'count of atoms other than hydrogen', RDKIT_SOURCE),
    };

    const checks = {
      molecular_weight: rule(molecularWeight.value, 500),
      clogp: rule(result.clogp.value, 5),
      h_bond_donors: rule(d.lipinskiHBD, 5),
      h_bond_acceptors: rule(d.lipinskiHBA, 10),
    };
    const violations = Object.values(checks).filter((c) => !c.pass).length;

    return {
      smiles,
      ...(compound ? { compound } : {}),
      canonical_smiles: mol.get_smiles(),
      ...(identity ? { formula: identity.formula } : {}),
      formal_charge: charge,
      ...(identity ? { inchi: identity.inchi, inchikey: identity.inchikey } : {}),
      descriptors: result,
      lipinski_rule_of_five: {
        ...checks,
        violations,
        passes: violations <= 1,
        rule: 'MW <= 500 g/mol, logP <= 5, H-bond donors <= 5, H-bond acceptors <= 10; passes with at most one violation. logP here is Wildman–Crippen, not the Daylight CLOGP Lipinski used.',
        source: SOURCES.lipinski,
      },
      ...(include_svg ? { svg: mol.get_svg(SVG_WIDTH, SVG_HEIGHT) } : {}),
      warnings,
    };
  });
}

export const moleculeDescriptorsTool = {
  name: 'service_molecule_descriptors',
  title: 'Molecule descriptors from SMILES',
  description: [
    'Compute molecular descriptors of any molecule from its SMILES string with RDKit.',
    'Arguments: smiles (e.g. "CC(=O)Oc1ccccc1C(=O)O") or instead compound_name (a name, CAS number or InChIKey, e.g. "aspirin", from the measured catalogue or the PubChem name table; the result then names the compound under compound); include_svg (boolean, default false) to also get a 2D depiction as SVG.',
    'Returns canonical_smiles, formula (Hill order), formal_charge, InChI and InChIKey, and descriptors, each {value, unit, method, source}:',
    'molecular_weight (g/mol, IUPAC 2021 atomic weights), exact_mass (monoisotopic, g/mol), clogp (Wildman–Crippen 1999 logP),',
    'tpsa (Ertl 2000 topological polar surface area, Å2), h_bond_donors and h_bond_acceptors (Lipinski definitions: H on N/O; N and O atoms),',
    'rotatable_bonds (RDKit strict definition), ring_count, aromatic_ring_count, heavy_atom_count;',
    'lipinski_rule_of_five with each rule (MW <= 500, logP <= 5, donors <= 5, acceptors <= 10) as value/limit/pass, the violation count and passes (at most one violation).',
    'An invalid SMILES is an error quoting what RDKit could not parse.',
  ].join(' '),
  inputSchema,
  outputSchema,
  run: moleculeDescriptors,
} satisfies ChemTool<MoleculeDescriptorsArgs, Promise<MoleculeDescriptorsResult>>;
