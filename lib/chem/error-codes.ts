/**
 * Every error code a tool call can answer with, what it means and what to do next. ToolError and the
 * MCP layer accept only these codes (the type says so), and the error tables of docs/tools.md and the
 * portal's docs page are generated from this list, so a new code cannot reach a caller undocumented.
 */
export const TOOL_ERROR_CODES = {
  unknown_tool: {
    meaning:
      'No tool has that name. The call still counts against the quota, as a failure, recorded as "unknown_tool", not the name sent.',
    next: 'Call tools/list; the message lists the tools.',
  },
  invalid_arguments: {
    meaning:
      'An argument is missing, unknown, of the wrong type or given twice under two names; or a value the schema cannot check is wrong (an empty query, mole fractions that do not sum to 1, a SMILES or formula that does not parse).',
    next: 'Fix the argument the message names; it suggests the argument meant ("did you mean …") and, for a name given as a SMILES, points to compound_name.',
  },
  compound_not_found: {
    meaning: 'No compound has that name, CAS number, formula, SMILES or InChIKey.',
    next: 'Try a name from `suggestions`; else service_search_compounds (query), a SMILES or a CAS number as compound_name.',
  },
  is_mixture: {
    meaning:
      'The name is that of a mixture (air, natural gas, gasoline, a refrigerant blend such as R-410A), not of one compound.',
    next: 'Pass its components to service_mixture_properties: the message lists them with their mole fractions where the composition is on record. Air also answers in service_eos_state, service_ideal_gas_thermo and service_query_compound.',
  },
  ambiguous_compound: {
    meaning: 'The formula belongs to several compounds (isomers).',
    next: 'Give one of the `candidates` by name.',
  },
  unsupported_unit: {
    meaning: 'The unit is not one the tool knows.',
    next: 'Use one of the units the message lists for that dimension.',
  },
  incompatible_units: {
    meaning: 'The two units measure different things (bar and K).',
    next: 'Give units of the same dimension; the message names both.',
  },
  out_of_range: {
    meaning:
      'A value is outside what the quantity or the method allows: below absolute zero, a non-positive pressure, above the critical temperature for a liquid property, outside the range of every method that could answer (beyond the little each may be extrapolated).',
    next: 'Give a value inside a range the message states (and check its unit: the message asks when °C, bar or kPa was likely meant).',
  },
  missing_data: {
    meaning: 'The compound lacks a value the method needs (e.g. no critical constants, no vapour-pressure equation).',
    next: 'Choose another method or compound; the message says which value is missing.',
  },
  no_solution: {
    meaning: 'The equation has no solution at these conditions (e.g. no boiling point at that pressure).',
    next: 'Change the conditions as the message suggests.',
  },
  result_out_of_range: {
    meaning: 'The result would not be a finite number (inputs at the edge of the number range).',
    next: 'Use smaller magnitudes.',
  },
  internal_error: {
    meaning: 'A bug on our side; it was logged.',
    next: 'Try again later; report it if it persists.',
  },
} as const satisfies Record<string, { meaning: string; next: string }>;

export type ToolErrorCode = keyof typeof TOOL_ERROR_CODES;
