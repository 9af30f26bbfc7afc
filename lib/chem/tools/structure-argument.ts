/**
 * What the structure tools (service_estimate_joback, service_molecule_descriptors,
 * service_formula_info) share to take a compound by name where they take a SMILES or a formula:
 * the `compound_name` argument, the rule that exactly one of the two is given, and the `compound`
 * field of their results saying which compound the name was read as.
 */
import { findStructure } from '../find-structure.ts';
import type { MatchKind } from '../lookup.ts';
import { type JsonSchema, ToolError } from '../tool.ts';
import { objectOf, STRING } from './answer-schema.ts';
import { COMPOUND_NAME_ARGUMENT } from './computed-value.ts';

export const STRUCTURE_NAME_ARGUMENT: JsonSchema = {
  ...COMPOUND_NAME_ARGUMENT,
  description: 'Instead of the structure: a name, CAS number or InChIKey ("caffeine", "58-08-2").',
};

/** The manual's paragraph on compound_name, for each structure tool's details. */
export const STRUCTURE_NAME_DETAILS =
  'Instead of the structure, compound_name takes a compound name, synonym, CAS number or InChIKey ("caffeine", "58-08-2"), looked up in the measured catalogue, then in the PubChem name table (5,130 compounds). The answer then has `compound`: the name, CAS number and PubChem CID it was read as, how it matched (matched_by: name, synonym, cas, inchikey, formula or smiles) and where the structure came from (origin: catalogue, the measured compound catalogue; name_table, PubChem identifiers). Give exactly one of the structure argument and compound_name (invalid_arguments otherwise). An unknown name is compound_not_found with close names; a formula shared by isomers is ambiguous_compound, listing them.';

const ORIGINS: NamedCompound['origin'][] = ['catalogue', 'name_table'];

/** Which compound a name was read as, returned by the structure tools when they were given one. */
export interface NamedCompound {
  name: string;
  cas?: string;
  pubchem_cid?: number;
  matched_by: MatchKind;
  origin: 'catalogue' | 'name_table';
}

/** Only when compound_name was given (matched_by as in service_query_compound's match.by). */
export const NAMED_COMPOUND_SCHEMA: JsonSchema = objectOf({
  name: STRING,
  cas: STRING,
  pubchem_cid: { type: 'integer' },
  matched_by: STRING,
  origin: { enum: ORIGINS },
});

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
