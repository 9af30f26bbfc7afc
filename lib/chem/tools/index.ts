/**
 * Every chemistry tool the MCP layer registers, in the order tools/list shows them. Everything else that
 * lists the tools (tools/list, docs/tools.md, the portal's docs and home pages, the usage labels, the
 * tests) reads this list. A new tool is its file (defineTool) and test, a line here, and its name among
 * the published ones in index.test.ts.
 */
import type { ChemTool } from '../tool.ts';
import { boilingPointTool } from './boiling-point.ts';
import { convertUnitsTool } from './convert-units.ts';
import { eosStateTool } from './eos-state.ts';
import { estimateJobackTool } from './estimate-joback.ts';
import { formulaInfoTool } from './formula-info.ts';
import { idealGasThermoTool } from './ideal-gas-thermo.ts';
import { liquidDensityTool } from './liquid-density.ts';
import { mixturePropertiesTool } from './mixture-properties.ts';
import { moleculeDescriptorsTool } from './molecule-descriptors.ts';
import { queryCompoundTool } from './query-compound.ts';
import { searchCompoundsTool } from './search-compounds.ts';
import { vaporPressureTool } from './vapor-pressure.ts';

export const chemTools: ChemTool[] = [
  queryCompoundTool,
  searchCompoundsTool,
  convertUnitsTool,
  vaporPressureTool,
  boilingPointTool,
  eosStateTool,
  mixturePropertiesTool,
  idealGasThermoTool,
  liquidDensityTool,
  estimateJobackTool,
  formulaInfoTool,
  moleculeDescriptorsTool,
];
