/**
 * Compounds served beside the built-in data: the ones an operator imported (`cli compounds import`),
 * handed over at start-up by code that reads them from the database. lib/chem never reads the
 * database itself; it only keeps the list lib/compounds registered (see registerCompounds in
 * lib/compounds/registration.ts, which checks the list first) and the lookup index includes it.
 *
 * The lists are shared by the process (lib/process-shared.ts): server.ts and Next's bundle load separate
 * copies of lib/chem, and both must serve the same compounds.
 */
import { processShared } from '../process-shared.ts';
import type { Compound } from './compounds.ts';

const NONE: readonly Compound[] = Object.freeze([]);
const NO_OVERRIDES: ReadonlyMap<string, Compound> = new Map();

interface ServedBeside {
  registered: readonly Compound[];
  overrides: ReadonlyMap<string, Compound>;
  bundled: readonly Compound[];
}

const servedBeside = (): ServedBeside =>
  processShared<ServedBeside>('servedCompounds', () => ({ registered: NONE, overrides: NO_OVERRIDES, bundled: NONE }));

/** The registered compounds; the same array object until the next setRegisteredCompounds. */
export function registeredCompounds(): readonly Compound[] {
  return servedBeside().registered;
}

/**
 * Built-in compounds the registered ones override (`cli compounds import --replace`): built-in name →
 * the registered compound served in its place. Keyed by name, not by object: each copy of lib/chem
 * has its own built-in objects. Replaced together with the registered compounds.
 */
export function registeredOverrides(): ReadonlyMap<string, Compound> {
  return servedBeside().overrides;
}

/** Replaces the registered compounds (and the built-ins they override). Callers check them first (registerCompounds does). */
export function setRegisteredCompounds(
  compounds: readonly Compound[],
  overrides: ReadonlyMap<string, Compound> = NO_OVERRIDES,
): void {
  const served = servedBeside();
  served.overrides = new Map(overrides);
  served.registered = Object.freeze([...compounds]);
}

/**
 * The compounds of the bundled ChemSep file that the built-in catalogue lacks (lib/compounds/bundled-chemsep.ts
 * sets them at start-up): served last, under names, CAS numbers and structures nothing else claims.
 */
export function bundledCompounds(): readonly Compound[] {
  return servedBeside().bundled;
}

export function setBundledCompounds(compounds: readonly Compound[]): void {
  servedBeside().bundled = Object.freeze([...compounds]);
}
