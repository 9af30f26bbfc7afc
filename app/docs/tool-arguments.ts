/**
 * A tool's input schema as a list a person reads: each argument (and each field of an array of
 * objects, as "components[].mole_fraction") with its type, whether it is required, its allowed values,
 * default and range, and its description. Only what the schema states is shown.
 */
export interface ToolArgument {
  name: string;
  type: string;
  required: boolean;
  /** "one of …", "default …", "1 to 50", "2 to 20 items". */
  facts: string[];
  description: string;
}

interface Schema {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  description?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}

function typeOf(schema: Schema): string {
  if (schema.type === 'array')
    return `array of ${schema.items?.type === 'object' ? 'objects' : `${schema.items?.type ?? 'value'}s`}`;
  return schema.type ?? 'value';
}

/** "1 to 50" when both ends are inclusive, else "> 0 and ≤ 1", "≥ 0". */
function bounds(
  low: number | undefined,
  high: number | undefined,
  lowOpen: boolean,
  highOpen: boolean,
): string | undefined {
  if (low !== undefined && high !== undefined && !lowOpen && !highOpen) return `${low} to ${high}`;
  const parts = [
    low !== undefined ? `${lowOpen ? '>' : '≥'} ${low}` : undefined,
    high !== undefined ? `${highOpen ? '<' : '≤'} ${high}` : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(' and ') : undefined;
}

function itemCount(min: number | undefined, max: number | undefined): string | undefined {
  if (min !== undefined && max !== undefined) return `${min} to ${max} items`;
  if (max !== undefined) return `at most ${max} items`;
  return min !== undefined ? `at least ${min} items` : undefined;
}

function factsOf(schema: Schema): string[] {
  const facts: string[] = [];
  if (schema.enum) facts.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (schema.default !== undefined) facts.push(`default ${JSON.stringify(schema.default)}`);
  const range = bounds(
    schema.exclusiveMinimum ?? schema.minimum,
    schema.exclusiveMaximum ?? schema.maximum,
    schema.exclusiveMinimum !== undefined,
    schema.exclusiveMaximum !== undefined,
  );
  if (range) facts.push(`range ${range}`);
  const items = itemCount(schema.minItems, schema.maxItems);
  if (items) facts.push(items);
  return facts;
}

export function toolArguments(inputSchema: object, prefix = ''): ToolArgument[] {
  const schema = inputSchema as Schema;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const row: ToolArgument = {
      name: prefix + name,
      type: typeOf(property),
      required: required.has(name),
      facts: factsOf(property),
      description: property.description ?? '',
    };
    const fields =
      property.type === 'array' && property.items?.type === 'object'
        ? toolArguments(property.items, `${prefix}${name}[].`)
        : [];
    return [row, ...fields];
  });
}
