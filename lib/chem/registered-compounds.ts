/**
 * Compounds served beside the built-in data: the ones an operator imported (`cli compounds import`),
 * handed over at start-up by code that reads them from the database. lib/chem never reads the
 * database itself; it only keeps the list the start-up code registered (see registerCompounds in
 * ./imported-compounds.ts, which checks the list first) and the lookup index includes it.
 *
 * The list lives on globalThis: server.ts and Next's bundle of the /mcp route load separate copies
 * of lib/chem, and both must serve the same compounds.
 */
import type { Compound } from './compounds.ts';

const REGISTERED = Symbol.for('chemflow.registeredCompounds');
type Holder = { [REGISTERED]?: readonly Compound[] };

const NONE: readonly Compound[] = Object.freeze([]);

/** The registered compounds; the same array object until the next setRegisteredCompounds. */
export function registeredCompounds(): readonly Compound[] {
  return (globalThis as Holder)[REGISTERED] ?? NONE;
}

/** Replaces the registered compounds. Callers check them first (registerCompounds does). */
export function setRegisteredCompounds(compounds: readonly Compound[]): void {
  (globalThis as Holder)[REGISTERED] = Object.freeze([...compounds]);
}
