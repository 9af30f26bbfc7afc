/** Every chemistry tool the MCP layer registers, in the order tools/list shows them. */
import type { ChemTool } from '../tool.ts';
import { convertUnitsTool } from './convert-units.ts';
import { eosStateTool } from './eos-state.ts';
import { mixturePropertiesTool } from './mixture-properties.ts';
import { queryCompoundTool } from './query-compound.ts';

export const chemTools: ChemTool[] = [queryCompoundTool, convertUnitsTool, eosStateTool, mixturePropertiesTool];
