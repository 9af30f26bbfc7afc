/**
 * service_molecule_descriptors: what RDKit computes from a SMILES string alone: identity (canonical
 * SMILES, formula, InChI, InChIKey), masses, Wildman–Crippen logP, Ertl TPSA, Lipinski donors and
 * acceptors, rotatable bonds, rings, Lipinski's rule of five, and optionally an SVG depiction.
 */
import { ATOMIC_WEIGHTS, ATOMIC_WEIGHTS_SOURCE } from '../atomic-weights.ts';
import { molarMass } from '../formula.ts';
import { roundTo } from '../precision.ts';
import {
  descriptors,
  formalCharge,
  inchiIdentity,
  loadRDKit,
  MAX_SMILES_LENGTH,
  RDKIT_SOURCE,
  withMolecule,
} from '../rdkit.ts';
import { defineTool, type JsonSchema } from '../tool.ts';
import { answerSchema, NUMBER, objectOf, QUANTITY, STRING, WARNINGS } from './answer-schema.ts';
import {
  NAMED_COMPOUND_SCHEMA,
  type NamedCompound,
  STRUCTURE_NAME_ARGUMENT,
  STRUCTURE_NAME_DETAILS,
  structureFrom,
} from './structure-argument.ts';

interface MoleculeDescriptorsArgs {
  smiles?: string;
  compound_name?: string;
  include_svg?: boolean;
}

interface Descriptor {
  value: number;
  unit: string;
  method: string;
  source: string;
}

/** One rule of five: its limit and whether the descriptor of the same name is within it. */
interface RuleCheck {
  limit: number;
  pass: boolean;
}

interface MoleculeDescriptorsResult {
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

/**
 * Each descriptor: unit, meaning (for the manual), how RDKit computes it (its `method` in answers) and the
 * decimals it is reported to (none for counts). Masses, logP and TPSA are sums of tabulated atomic or
 * fragment values, not fits, so they keep the decimals the tables support, not a method class's digits.
 */
const DESCRIPTORS: Record<DescriptorKey, { unit: string; description: string; method: string; decimals?: number }> = {
  molecular_weight: {
    unit: 'g/mol',
    description:
      "Average molar mass, from IUPAC 2021 standard atomic weights (RDKit's own weights for isotope labels or elements outside the table)",
    method: 'Σ count × standard atomic weight',
    decimals: 3,
  },
  exact_mass: {
    unit: 'g/mol',
    description: 'Monoisotopic mass: each atom as its most abundant isotope (or as the isotope the SMILES labels)',
    method: 'RDKit monoisotopic mass',
    decimals: 6,
  },
  clogp: {
    unit: '',
    description: 'Calculated octanol/water log P from Wildman–Crippen atom contributions (Wildman, Crippen 1999)',
    method: 'Wildman–Crippen atom contributions (RDKit CrippenClogP)',
    decimals: 4,
  },
  tpsa: {
    unit: 'Å2',
    description: 'Topological polar surface area (Ertl et al. 2000), N and O contributions only',
    method: 'Ertl fragment contributions, N and O only (RDKit)',
    decimals: 2,
  },
  h_bond_donors: {
    unit: '',
    description: 'Lipinski hydrogen-bond donors: H atoms bonded to N or O',
    method: 'Lipinski: H on N or O (RDKit NumLipinskiHBD)',
  },
  h_bond_acceptors: {
    unit: '',
    description: 'Lipinski hydrogen-bond acceptors: N and O atoms',
    method: 'Lipinski: N and O atoms (RDKit NumLipinskiHBA)',
  },
  rotatable_bonds: {
    unit: '',
    description:
      'Rotatable bonds, RDKit strict definition: single, non-ring bonds between non-terminal heavy atoms, not counting bonds to triple-bonded atoms, to CX3 and tert-butyl groups, or amide/ester C(=X)–X bonds',
    method: 'RDKit strict definition (NumRotatableBonds)',
  },
  ring_count: {
    unit: '',
    description: 'Rings in the smallest set of smallest rings (SSSR)',
    method: 'RDKit SSSR',
  },
  aromatic_ring_count: {
    unit: '',
    description: 'Aromatic rings, RDKit aromaticity model',
    method: 'RDKit aromaticity model',
  },
  heavy_atom_count: {
    unit: '',
    description: 'Atoms other than hydrogen',
    method: 'count of atoms other than hydrogen',
  },
};
const DESCRIPTOR_KEYS = Object.keys(DESCRIPTORS) as DescriptorKey[];

/** A descriptor's value as reported: to its decimals (../precision.ts roundTo), counts as they are. */
function reported(key: DescriptorKey, value: number): number {
  const { decimals } = DESCRIPTORS[key];
  return decimals === undefined ? value : roundTo(value, decimals);
}

const RULE_CHECK: JsonSchema = { $ref: '#/$defs/check' };

const outputSchema = answerSchema(
  {
    smiles: STRING,
    compound: NAMED_COMPOUND_SCHEMA,
    canonical_smiles: STRING,
    formula: STRING,
    formal_charge: { type: 'integer' },
    inchi: STRING,
    inchikey: STRING,
    descriptors: { type: 'object', propertyNames: { enum: DESCRIPTOR_KEYS }, additionalProperties: QUANTITY },
    lipinski_rule_of_five: objectOf({
      molecular_weight: RULE_CHECK,
      clogp: RULE_CHECK,
      h_bond_donors: RULE_CHECK,
      h_bond_acceptors: RULE_CHECK,
      violations: { type: 'integer' },
      passes: { type: 'boolean' },
      rule: STRING,
      source: STRING,
    }),
    svg: STRING,
    warnings: WARNINGS,
  },
  ['compound', 'formula', 'inchi', 'inchikey', 'svg'],
  { check: objectOf({ limit: NUMBER, pass: { type: 'boolean' } }) },
);

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_molecule_descriptorsArguments',
  properties: {
    smiles: {
      type: 'string',
      title: 'Smiles',
      minLength: 1,
      maxLength: MAX_SMILES_LENGTH,
      description: 'E.g. "CC(=O)Oc1ccccc1C(=O)O"; disconnected parts are taken together.',
    },
    compound_name: STRUCTURE_NAME_ARGUMENT,
    include_svg: {
      type: 'boolean',
      title: 'Include Svg',
      default: false,
      description: 'Also return a 2D depiction as SVG.',
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
  return { limit, pass: value <= limit };
}

async function moleculeDescriptors({
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

    const descriptor = (key: DescriptorKey, raw: number, source: string, method = DESCRIPTORS[key].method) => ({
      value: reported(key, raw),
      unit: DESCRIPTORS[key].unit,
      method,
      source,
    });
    const result: Record<DescriptorKey, Descriptor> = {
      molecular_weight: iupac
        ? descriptor('molecular_weight', molarMass(counts), ATOMIC_WEIGHTS_SOURCE)
        : descriptor(
            'molecular_weight',
            d.amw,
            RDKIT_SOURCE,
            'RDKit average molecular weight (isotope labels honoured)',
          ),
      exact_mass: descriptor('exact_mass', d.exactmw, RDKIT_SOURCE),
      clogp: descriptor('clogp', d.CrippenClogP, SOURCES.crippen),
      tpsa: descriptor('tpsa', d.tpsa, SOURCES.ertl),
      h_bond_donors: descriptor('h_bond_donors', d.lipinskiHBD, SOURCES.lipinski),
      h_bond_acceptors: descriptor('h_bond_acceptors', d.lipinskiHBA, SOURCES.lipinski),
      rotatable_bonds: descriptor('rotatable_bonds', d.NumRotatableBonds, RDKIT_SOURCE),
      ring_count: descriptor('ring_count', d.NumRings, RDKIT_SOURCE),
      aromatic_ring_count: descriptor('aromatic_ring_count', d.NumAromaticRings, RDKIT_SOURCE),
      heavy_atom_count: descriptor('heavy_atom_count', d.NumHeavyAtoms, RDKIT_SOURCE),
    };

    const checks = {
      molecular_weight: rule(result.molecular_weight.value, 500),
      clogp: rule(result.clogp.value, 5),
      h_bond_donors: rule(result.h_bond_donors.value, 5),
      h_bond_acceptors: rule(result.h_bond_acceptors.value, 10),
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
        rule: 'Passes with at most one violation. logP here is Wildman–Crippen, not the Daylight CLOGP Lipinski used.',
        source: SOURCES.lipinski,
      },
      ...(include_svg ? { svg: mol.get_svg(SVG_WIDTH, SVG_HEIGHT) } : {}),
      warnings,
    };
  });
}

export const moleculeDescriptorsTool = defineTool<MoleculeDescriptorsArgs, Promise<MoleculeDescriptorsResult>>({
  name: 'service_molecule_descriptors',
  title: 'Molecule descriptors from SMILES',
  description: [
    "RDKit descriptors of a molecule given as smiles or compound_name: canonical SMILES, formula, charge, InChI, InChIKey, molecular_weight, exact_mass, clogp (Wildman–Crippen), tpsa (Å2), H-bond donors and acceptors, rotatable bonds, ring and heavy-atom counts, and Lipinski's rule of five.",
    'include_svg adds a 2D drawing.',
  ].join(' '),
  details: [
    'smiles: any molecule RDKit parses, e.g. "CC(=O)Oc1ccccc1C(=O)O" (aspirin); disconnected parts ("[Na+].[Cl-]") are taken together, as a warning says. An invalid SMILES is an error (invalid_arguments) giving RDKit\'s reason; one that reads as a name points to compound_name.',
    STRUCTURE_NAME_DETAILS,
    'Returns smiles (as given, or that of compound_name), canonical_smiles (RDKit), formula (Hill order, from the InChI formula layer; charge given separately; omitted with InChI and InChIKey when InChI cannot represent the structure), formal_charge (sum over atoms), standard InChI and InChIKey, and descriptors, each {value, unit, method, source}:',
    `${DESCRIPTOR_KEYS.map((key) => `${key} (${DESCRIPTORS[key].unit || 'dimensionless'}): ${DESCRIPTORS[key].description}.`).join(' ')}`,
    'lipinski_rule_of_five (Lipinski et al. 1997): molecular_weight (limit 500 g/mol), clogp (limit 5), h_bond_donors (limit 5) and h_bond_acceptors (limit 10), each as {limit, pass: the descriptor of the same name <= limit}; violations, the number of rules that fail; passes, true with at most one violation (poor oral absorption is more likely when more than one fails). logP here is Wildman–Crippen, not the Daylight CLOGP Lipinski used.',
    `include_svg: true adds svg, a ${SVG_WIDTH}×${SVG_HEIGHT} px 2D depiction as an SVG document. warnings: caveats for using the values (isotope labels, disconnected parts, a net charge: the formula and masses are then those of the ion, electron mass neglected).`,
    'Precision: molecular_weight to 3 decimals, exact_mass 6, clogp 4, tpsa 2 (sums of tabulated atomic or fragment values); counts are integers.',
  ],
  inputSchema,
  outputSchema,
  example: { smiles: 'CC(=O)Oc1ccccc1C(=O)O' },
  run: moleculeDescriptors,
});
