/**
 * The tables and columns a generated Prisma client expects, read from its runtime data model (the
 * `prisma-client` generator leaves Prisma.dmmf undefined; the client instance carries this instead).
 * Tests compare it with the columns a migrated database really has.
 */
import type { RuntimeDataModel } from '@prisma/client/runtime/client';
import type { Db } from '../lib/db/client.ts';

export interface ModelTable {
  model: string;
  table: string;
  /** Column names, sorted; relation fields have no column of their own and are left out. */
  columns: string[];
}

export function modelTables(db: Db): ModelTable[] {
  const { models } = (db as unknown as { _runtimeDataModel: RuntimeDataModel })._runtimeDataModel;
  return Object.entries(models)
    .map(([name, model]) => ({
      model: name,
      table: model.dbName ?? name,
      columns: model.fields
        .filter((field) => field.kind === 'scalar' || field.kind === 'enum')
        .map((field) => (field as { dbName?: string | null }).dbName ?? field.name)
        .sort(),
    }))
    .sort((a, b) => a.table.localeCompare(b.table));
}

/** Model names declared in schema text, to catch a generated client older than the schema. */
export function declaredModels(schema: string): string[] {
  return [...schema.matchAll(/^model\s+(\w+)\s*\{/gm)].map((match) => match[1]).sort();
}
