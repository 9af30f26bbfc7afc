/** A chemistry tool's JSON schemas typed for the tests that read them (the tool itself only promises JsonSchema). */
import type { JsonSchema } from '../../lib/chem/tool.ts';

/** The parts of a JSON schema the tests look at; any of them may be absent. */
export interface SchemaNode {
  type?: string;
  title?: string;
  description?: string;
  required?: string[];
  properties?: Record<string, SchemaNode>;
}

/** A FastMCP-style input schema: an object titled "<tool>Arguments" with titled properties. */
export interface ArgumentsSchema extends SchemaNode {
  title: string;
  required: string[];
  properties: Record<string, SchemaNode>;
}

/** The tool's input schema, read as the FastMCP shape the tests then check. */
export function argumentsSchema(tool: { inputSchema: JsonSchema }): ArgumentsSchema {
  return tool.inputSchema as unknown as ArgumentsSchema;
}

/** Any of a tool's schemas, for reading nested parts (each may be absent). */
export function schemaNode(schema: JsonSchema): SchemaNode {
  return schema as SchemaNode;
}
