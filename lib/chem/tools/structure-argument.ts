/**
 * What the structure tools (service_estimate_joback, service_molecule_descriptors,
 * service_formula_info) share to take a compound by name where they take a SMILES or a formula:
 * the `compound_name` argument, the rule that exactly one of the two is given, and the `compound`
 * field of their results saying which compound the name was read as.
 */
import { findStructure } from '../find-structure.ts';
import type { MatchKind } from '../lookup.ts';
import { type JsonSchema, ToolError } from '../tool.ts';
import { COMPOUND_NAME_ARGUMENT } from './computed-value.ts';

export const STRUCTURE_NAME_ARGUMENT: JsonSchema = {
  ...COMPOUND_NAME_ARGUMENT,
  description:
    'Instead of the structure: a compound name, synonym, CAS number or InChIKey ("caffeine", "58-08-2"), looked up in the measured catalogue, then in the PubChem name table (about 5,000 compounds). Give this or the structure argument, not both.',
};

/** Which compound a name was read as, returned by the structure tools when they were given one. */
export interface NamedCompound {
  name: string;
  cas?: string;
  pubchem_cid?: number;
  matched_by: MatchKind;
  origin: 'catalogue' | 'name_table';
}

export const NAMED_COMPOUND_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Only when compound_name was given: the compound it was read as and where its structure came from.',
  properties: {
    name: { type: 'string' },
    cas: { type: 'string' },
    pubchem_cid: { type: 'integer', minimum: 1 },
    matched_by: { type: 'string', enum: ['name', 'synonym', 'cas', 'inchikey', 'formula', 'smiles'] },
    origin: {
      type: 'string',
      enum: ['catalogue', 'name_table'],
      description: 'catalogue: the measured compound catalogue; name_table: PubChem identifiers.',
    },
  },
  required: ['name', 'matched_by', 'origin'],
  additionalProperties: false,
};

/**
 * The structure to work on: `given` (the SMILES or formula argument, named `argument`) or the one
 * `compound_name` names. Throws invalid_arguments unless exactly one is given, and findStructure's
 * errors (compound_not_found with suggestions, ambiguous_compound) for a name.
 */
export function structureFrom(
  argument: 'smiles' | 'formula',
  given: string | undefined,
  compound_name: string | undefined,
): { smiles: string; formula: string; compound?: NamedCompound } | { given: string } {
  if ((given === undefined) === (compound_name === undefined)) {
    throw new ToolError(
      'invalid_arguments',
      `Give exactly one of ${argument} and compound_name: ${argument} for a ${argument === 'smiles' ? 'structure' : 'formula'} you write, compound_name for a compound by name, CAS number or InChIKey.`,
    );
  }
  if (given !== undefined) return { given };
  const found = findStructure(compound_name!);
  return {
    smiles: found.smiles,
    formula: found.formula,
    compound: {
      name: found.name,
      ...(found.cas ? { cas: found.cas } : {}),
      ...(found.cid ? { pubchem_cid: found.cid } : {}),
      matched_by: found.matched_by,
      origin: found.origin,
    },
  };
}
