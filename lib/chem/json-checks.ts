/** Small checks for compound records read from JSON (data files, imports), shared by their readers. */
export type Fail = (message: string) => never;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of a list of non-empty strings, or undefined if it is not one. */
export function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((s) => typeof s === 'string' && s.trim() !== '') ? [...value] : undefined;
}

/** Freezes an object graph: lookups hand out shared compound objects. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
