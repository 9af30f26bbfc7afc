/**
 * Compounds served beside the built-in data: the ones an operator imported (`cli compounds import`),
 * handed over at start-up by code that reads them from the database. lib/chem never reads the
 * database itself; it only keeps the list lib/compounds registered (see registerCompounds in
 * lib/compounds/registration.ts, which checks the list first) and the lookup index includes it.
 *
 * The list lives on globalThis: server.ts and Next's bundle of the /mcp route load separate copies
 * of lib/chem, and both must serve the same compounds.
 */
import type { Compound } from './compounds.ts';

const REGISTERED = Symbol.for('chemflow.registeredCompounds');
const OVERRIDES = Symbol.for('chemflow.registeredOverrides');
const BUNDLED = Symbol.for('chemflow.bundledCompounds');
type Holder = {
  [REGISTERED]?: readonly Compound[];
  [OVERRIDES]?: ReadonlyMap<string, Compound>;
  [BUNDLED]?: readonly Compound[];
};

const NONE: readonly Compound[] = Object.freeze([]);
const NO_OVERRIDES: ReadonlyMap<string, Compound> = new Map();

/** The registered compounds; the same array object until the next setRegisteredCompounds. */
export function registeredCompounds(): readonly Compound[] {
  return (globalThis as Holder)[REGISTERED] ?? NONE;
}

/**
 * Built-in compounds the registered ones override (`cli compounds import --replace`): built-in name →
 * the registered compound served in its place. Keyed by name, not by object: each copy of lib/chem
 * has its own built-in objects. Replaced together with the registered compounds.
 */
export function registeredOverrides(): ReadonlyMap<string, Compound> {
  return (globalThis as Holder)[OVERRIDES] ?? NO_OVERRIDES;
}

/** Replaces the registered compounds (and the built-ins they override). Callers check them first (registerCompounds does). */
export function setRegisteredCompounds(
  compounds: readonly Compound[],
  overrides: ReadonlyMap<string, Compound> = NO_OVERRIDES,
): void {
  (globalThis as Holder)[OVERRIDES] = new Map(overrides);
  (globalThis as Holder)[REGISTERED] = Object.freeze([...compounds]);
}

/**
 * The compounds of the bundled ChemSep file that the built-in catalogue lacks (lib/compounds/bundled-chemsep.ts
 * sets them at start-up): served last, under names, CAS numbers and structures nothing else claims.
 */
export function bundledCompounds(): readonly Compound[] {
  return (globalThis as Holder)[BUNDLED] ?? NONE;
}

export function setBundledCompounds(compounds: readonly Compound[]): void {
  (globalThis as Holder)[BUNDLED] = Object.freeze([...compounds]);
}
