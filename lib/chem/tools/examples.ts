/**
 * One representative call per tool: shown in the README's tool catalogue (scripts/tool-catalogue.ts)
 * and made through /mcp by the integration test, so the documented examples are known to work.
 */
export const TOOL_EXAMPLES: Record<string, Record<string, unknown>> = {
  service_query_compound: { compound_name: 'water' },
  service_search_compounds: { query: 'butane', limit: 3 },
  service_convert_units: { value: 1, from_unit: 'atm', to_unit: 'kPa' },
  service_vapor_pressure: { compound_name: 'water', temperature: 100, temperature_unit: '°C' },
  service_boiling_point: { compound_name: 'water', pressure: 1, pressure_unit: 'atm' },
  service_eos_state: { compound_name: 'propane', temperature: 298, pressure: 1, pressure_unit: 'bar' },
  service_mixture_properties: {
    components: [
      { compound_name: 'methane', mole_fraction: 0.5 },
      { compound_name: 'ethane', mole_fraction: 0.5 },
    ],
  },
  service_ideal_gas_thermo: { compound_name: 'nitrogen', temperature: 500 },
  service_liquid_density: { compound_name: 'propane', temperature: 272.04 },
  service_estimate_joback: { smiles: 'CC(C)=O' },
  service_formula_info: { formula: 'CuSO4·5H2O' },
  service_molecule_descriptors: { smiles: 'CC(=O)Oc1ccccc1C(=O)O' },
};
