/** What the operator's commands share: reading their arguments, and the usage error. */
import { parseArgs } from 'node:util';
import type { Db } from '../db/client.ts';

/** A command: its arguments (after the two words naming it) against the migrated database. */
export type Command = (db: Db, args: string[]) => Promise<void>;

/** A command used wrongly: run.ts answers with the message, the usage and exit code 2. */
export class UsageError extends Error {}

export function positiveInteger(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`--${name} must be a whole number of at least 1, got "${raw}".`);
  return value;
}

export function parse(
  args: string[],
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'],
  positionals = 0,
  positional = 'key reference (id, secret, display form or first 4 characters)',
) {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: positionals > 0, strict: true });
    if (parsed.positionals.length !== positionals) {
      throw new UsageError(positionals ? `Give exactly one ${positional}.` : 'Unexpected argument.');
    }
    return parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] };
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}

export const text = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);
