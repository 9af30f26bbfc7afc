/**
 * service_query_compound's answer for a compound outside the measured catalogue that the PubChem
 * name table knows: its identifiers, the molecular weight computed from its formula, and Joback–Reid
 * group-contribution estimates (./estimate-joback.ts, already rounded to the method's precision), each
 * marked `estimated: true` with the method, source and Joback's reported average error in its note.
 * Nothing here is a measured value.
 */
import { molecularWeightValue } from '../compounds.ts';
import type { FoundStructure } from '../find-structure.ts';
import { parseFormula } from '../formula.ts';
import { JOBACK_METHOD } from '../joback.ts';
import type { PropertyKey, PropertyValue } from '../properties.ts';
import { ToolError } from '../tool.ts';
import { estimateJoback } from './estimate-joback.ts';
import type { QueryCompoundResult } from './query-compound.ts';

/** Synonyms shown (the IUPAC name, then the table's order): the table has dozens; the lookup uses them all. */
const MAX_SYNONYMS = 10;

/** Joback's estimates that are catalogue properties (same key, same unit). */
const ESTIMATED_PROPERTIES = [
  'normal_boiling_point',
  'melting_point',
  'critical_temperature',
  'critical_pressure',
  'critical_volume',
  'enthalpy_of_formation_gas',
  'gibbs_energy_of_formation_gas',
] as const satisfies readonly PropertyKey[];

const NOT_IN_CATALOGUE_NOTE =
  'Not in the measured catalogue: the identifiers come from PubChem (next note); every property except molecular_weight is a Joback–Reid group-contribution estimate from the SMILES ("estimated": true), not a measurement.';

/** The answer for `query`, which the catalogue missed and the name table found as `found`. */
export async function estimatedCompound(query: string, found: FoundStructure): Promise<QueryCompoundResult> {
  const counts = parseFormula(found.formula);
  if (!counts || !found.cas) {
    throw new ToolError('missing_data', `${found.name}: its formula "${found.formula}" on record cannot be read.`, {
      query,
    });
  }
  const properties: Partial<Record<PropertyKey, PropertyValue & { estimated?: true }>> = {
    molecular_weight: molecularWeightValue(counts),
  };
  const notes = [NOT_IN_CATALOGUE_NOTE, `Identifiers: ${found.source}${found.cid ? `, CID ${found.cid}` : ''}.`];
  try {
    const joback = await estimateJoback({ smiles: found.smiles });
    for (const key of ESTIMATED_PROPERTIES) {
      const e = joback.estimates[key];
      if (!e) continue;
      // The method by name: the relation estimate_joback gives (e.method) means little without its table.
      properties[key] = {
        value: e.value,
        unit: e.unit,
        source: e.source,
        method: JOBACK_METHOD,
        note: e.note,
        ...(e.warnings ? { warnings: e.warnings } : {}),
        estimated: true,
      };
    }
    for (const { property, reason } of joback.unavailable) {
      if ((ESTIMATED_PROPERTIES as readonly string[]).includes(property)) notes.push(`No ${property}: ${reason}`);
    }
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    notes.push(`No group-contribution estimates: ${error.message}`);
  }
  return {
    name: found.name,
    cas: found.cas,
    formula: found.formula,
    smiles: found.smiles,
    ...(found.inchikey ? { inchikey: found.inchikey } : {}),
    ...(found.cid ? { pubchem_cid: found.cid } : {}),
    synonyms: found.synonyms.slice(0, MAX_SYNONYMS),
    notes,
    match: { query, by: found.matched_by },
    properties,
  };
}
