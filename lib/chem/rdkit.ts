/**
 * RDKit (MinimalLib, compiled to WebAssembly: the npm package @rdkit/rdkit) for the whole process:
 * one module, initialised on first use (~110–150 ms) and shared afterwards. Once loaded, every call
 * into it is synchronous.
 *
 * The WASM binary is read from node_modules with the file system, never fetched: under Node,
 * Emscripten looks for it beside the package's own script and reads it with fs.readFileSync.
 *
 * Molecules live on the WASM heap, which JavaScript's garbage collector cannot see: every molecule
 * parsed here is deleted in a `finally`, and callers get plain strings and numbers back, or lend a
 * molecule to a callback through `withMolecule`.
 *
 * RDKit reports parse failures through its log, not through exceptions; the log is captured here so
 * a caller can be told what RDKit could not parse, and so warnings do not go to the server's stderr.
 */
import initRDKitModule, { type Log, type MainModule, type Mol } from '@rdkit/rdkit';
import { hillFormula } from './formula.ts';
import { ToolError } from './tool.ts';

export type RDKitModule = MainModule;
export type Molecule = Mol;

export const RDKIT_SOURCE =
  'RDKit: Open-source cheminformatics, https://www.rdkit.org (MinimalLib 2026.09.1, @rdkit/rdkit on npm)';

/**
 * Size limits. MinimalLib recurses on the WASM stack: on this build a 1000-atom chain traps in the
 * SMILES parser and a 600-atom chain in get_descriptors(), and a trap leaves the module unusable.
 * 500 characters and 200 heavy atoms keep every call well inside what was seen to work (500-atom
 * chains, 300-deep branches, 366-atom fused aromatics) while covering small molecules and drugs.
 */
export const MAX_SMILES_LENGTH = 500;
export const MAX_HEAVY_ATOMS = 200;

interface LoadedRDKit {
  rdkit: RDKitModule;
  errors: Log;
  warnings: Log;
}

let loading: Promise<LoadedRDKit> | undefined;
let loaded: LoadedRDKit | undefined;

async function initialise(): Promise<LoadedRDKit> {
  // Emscripten finds RDKit_minimal.wasm beside its own script in node_modules and reads it with fs.
  // (Naming the path here would not survive Next's bundler, which rewrites require.resolve.)
  const rdkit = await initRDKitModule();
  const errors = rdkit.set_log_capture('rdApp.error');
  const warnings = rdkit.set_log_capture('rdApp.warning');
  if (!errors || !warnings) throw new Error('RDKit log capture is unavailable');
  loaded = { rdkit, errors, warnings };
  return loaded;
}

/** The process-wide RDKit module; the first call starts loading it, later calls share that promise. */
export async function loadRDKit(): Promise<RDKitModule> {
  loading ??= initialise().catch((error: unknown) => {
    loading = undefined; // let a later call retry instead of caching the failure
    throw error;
  });
  return (await loading).rdkit;
}

/** The module if it has finished loading, for synchronous callers that can do without it. */
export function loadedRDKit(): RDKitModule | undefined {
  return loaded?.rdkit;
}

function logText(log: Log): string {
  const text = log
    .get_buffer()
    .split('\n')
    .map((line) => line.replace(/^\[\d\d:\d\d:\d\d\]\s?/, '').trimEnd())
    .filter((line) => line !== '');
  log.clear_buffer();
  return [...new Set(text)].join('\n');
}

/**
 * Parses `smiles`, or returns RDKit's reason for refusing it. The molecule is the caller's to delete.
 * Hydrogens written explicitly ([H]) become implicit, as RDKit does by default.
 */
function parse(smiles: string): { mol: Molecule } | { error: string; tooLarge?: true } {
  if (!loaded) throw new Error('RDKit is not loaded: await loadRDKit() first');
  const { rdkit, errors, warnings } = loaded;
  const text = smiles.trim();
  if (text === '') return { error: 'the SMILES is empty' };
  if (text.length > MAX_SMILES_LENGTH)
    return { error: `it is longer than ${MAX_SMILES_LENGTH} characters`, tooLarge: true };
  errors.clear_buffer();
  const mol = guarded(() => rdkit.get_mol(text));
  logText(warnings);
  if (mol?.is_valid() && mol.get_num_atoms() > 0) {
    errors.clear_buffer();
    const heavy = mol.get_num_atoms(true);
    if (heavy <= MAX_HEAVY_ATOMS) return { mol };
    mol.delete();
    return { error: `it has ${heavy} heavy atoms; at most ${MAX_HEAVY_ATOMS} are accepted`, tooLarge: true };
  }
  mol?.delete();
  return { error: parseReason(logText(errors), text) };
}

/**
 * RDKit's parse log as one short reason: "syntax error while parsing: caffeine; check for mistakes around
 * position 2". The log repeats the input, draws a caret under it and ends with a generic "Failed parsing
 * SMILES" line; those add nothing once the specific lines are kept.
 */
function parseReason(log: string, smiles: string): string {
  const lines = log
    .split('\n')
    .map((line) =>
      line
        .replace(/^SMILES Parse Error:\s*/, '')
        .replace(/:$/, '')
        .trim(),
    )
    .filter((line) => line !== '' && line !== smiles && !/^[\s~^]+$/.test(line));
  const specific = lines.filter((line) => !/^Failed parsing SMILES/.test(line));
  const kept = (specific.length > 0 ? specific : lines).map((line) => line.replace(/ for input: '.*'$/, ''));
  return kept.join('; ') || 'RDKit found no atoms in it';
}

/** True for text no SMILES string could be: a word with letters SMILES never uses in lower case ("caffeine"). */
export function looksLikeName(text: string): boolean {
  return /^[\p{L}\p{N}\s,'()+-]+$/u.test(text) && /[adefghijkmqrtuvwxyz]{2}/.test(text);
}

/**
 * Runs `work` against the module. A WebAssembly trap (RuntimeError) leaves MinimalLib's memory in an
 * unknown state, so the module is dropped and the next loadRDKit() starts a fresh one; the caller
 * gets an error saying the structure could not be processed.
 */
export function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    loaded = undefined;
    loading = undefined;
    throw new ToolError(
      'invalid_arguments',
      `RDKit failed while processing this structure (${error.message}); it is too large or unusual for this service.`,
    );
  }
}

/**
 * Runs `use` on the molecule `smiles` describes and deletes the molecule afterwards, whatever `use`
 * does. An unparseable SMILES throws ToolError('invalid_arguments') quoting RDKit's reason.
 * Requires the module to be loaded (await loadRDKit()).
 */
export function withMolecule<T>(smiles: string, use: (mol: Molecule) => T, argument = 'smiles'): T {
  const parsed = parse(smiles);
  if ('error' in parsed) {
    if (parsed.tooLarge)
      throw new ToolError('out_of_range', `${argument} is too large: ${parsed.error}.`, { [argument]: smiles });
    const asName = looksLikeName(smiles.trim())
      ? ` If "${smiles.trim()}" is a compound name, pass it as compound_name instead (service_query_compound looks names up).`
      : '';
    throw new ToolError(
      'invalid_arguments',
      `${argument} "${smiles}" is not a valid SMILES string (RDKit: ${parsed.error}).${asName}`,
      { [argument]: smiles },
    );
  }
  try {
    return guarded(() => use(parsed.mol));
  } finally {
    if (loaded) parsed.mol.delete();
  }
}

/** RDKit's canonical SMILES of `smiles`, or undefined when it does not parse. Requires the module to be loaded. */
export function canonicalSmiles(smiles: string): string | undefined {
  const parsed = parse(smiles);
  if ('error' in parsed) return undefined;
  try {
    return guarded(() => parsed.mol.get_smiles());
  } finally {
    if (loaded) parsed.mol.delete();
  }
}

export interface InchiIdentity {
  /** Standard InChI. */
  inchi: string;
  /** Standard InChIKey. */
  inchikey: string;
  /** Hill formula of the structure as drawn (InChI formula layer corrected by its proton layer). */
  formula: string;
  /** Element counts behind `formula`, hydrogens included. */
  elementCounts: Record<string, number>;
  /** True when the InChI has an isotopic layer: the formula then names elements, not isotopes. */
  isotopic: boolean;
}

/**
 * Standard InChI and InChIKey of `mol`, and its formula read from the InChI's formula layer (MinimalLib
 * has no formula getter). Undefined when InChI cannot represent the structure (e.g. dummy atoms).
 */
export function inchiIdentity(mol: Molecule): InchiIdentity | undefined {
  const rdkit = loadedRDKit();
  if (!rdkit) throw new Error('RDKit is not loaded: await loadRDKit() first');
  const inchi = mol.get_inchi();
  if (!inchi.startsWith('InChI=')) return undefined;
  const inchikey = rdkit.get_inchikey_for_inchi(inchi);
  const elementCounts = inchiElementCounts(inchi);
  return { inchi, inchikey, formula: hillFormula(elementCounts), elementCounts, isotopic: /\/i/.test(inchi) };
}

/**
 * Element counts of the structure an InChI describes: the formula layer ("C2H6O", "ClH.Na",
 * "2C2H6") plus the mobile-proton layer "/p±n", which says how many protons the structure has more
 * (or fewer) than the formula layer shows (sodium chloride is ClH.Na with /p-1, so ClNa).
 */
export function inchiElementCounts(inchi: string): Record<string, number> {
  const layers = inchi.replace(/^InChI=1S?\//, '').split('/');
  const formulaLayer = /^[A-Z0-9]/.test(layers[0] ?? '') ? layers[0] : '';
  const counts: Record<string, number> = {};
  for (const component of formulaLayer.split('.').filter(Boolean)) {
    const [, multiplier, formula] = /^(\d*)(.*)$/.exec(component)!;
    for (const [, symbol, n] of formula.matchAll(/([A-Z][a-z]?)(\d*)/g)) {
      counts[symbol] = (counts[symbol] ?? 0) + Number(n || '1') * Number(multiplier || '1');
    }
  }
  const protons = layers.find((layer) => /^p[+-]\d+$/.test(layer));
  if (protons) counts.H = (counts.H ?? 0) + Number(protons.slice(1));
  if (counts.H === 0) delete counts.H;
  return counts;
}

/** Sum of the formal charges of `mol`'s atoms. */
export function formalCharge(mol: Molecule): number {
  const json = JSON.parse(mol.get_json()) as {
    defaults?: { atom?: { chg?: number } };
    molecules: { atoms: { chg?: number }[] }[];
  };
  const fallback = json.defaults?.atom?.chg ?? 0;
  return json.molecules.reduce((sum, m) => sum + m.atoms.reduce((s, a) => s + (a.chg ?? fallback), 0), 0);
}

/** The subset of MinimalLib's get_descriptors() the tools use (names as RDKit spells them). */
interface RDKitDescriptors {
  /** Average molecular weight, g/mol, from RDKit's atomic weights. */
  amw: number;
  /** Monoisotopic mass, g/mol (most abundant isotope of each element). */
  exactmw: number;
  /** Wildman–Crippen logP. */
  CrippenClogP: number;
  /** Topological polar surface area (Ertl), Å², N and O contributions only. */
  tpsa: number;
  /** Lipinski acceptors: count of N and O atoms. */
  lipinskiHBA: number;
  /** Lipinski donors: count of H on N and O. */
  lipinskiHBD: number;
  NumRotatableBonds: number;
  NumRings: number;
  NumAromaticRings: number;
  NumHeavyAtoms: number;
  /** All atoms, hydrogens included. */
  NumAtoms: number;
}

const DESCRIPTOR_KEYS = [
  'amw',
  'exactmw',
  'CrippenClogP',
  'tpsa',
  'lipinskiHBA',
  'lipinskiHBD',
  'NumRotatableBonds',
  'NumRings',
  'NumAromaticRings',
  'NumHeavyAtoms',
  'NumAtoms',
] as const satisfies readonly (keyof RDKitDescriptors)[];

/** RDKit's descriptors of `mol`; throws if this RDKit build stops providing one of them. */
export function descriptors(mol: Molecule): RDKitDescriptors {
  const all = JSON.parse(mol.get_descriptors()) as Record<string, unknown>;
  const missing = DESCRIPTOR_KEYS.filter((key) => typeof all[key] !== 'number');
  if (missing.length > 0) throw new Error(`RDKit get_descriptors() lacks ${missing.join(', ')}`);
  return Object.fromEntries(DESCRIPTOR_KEYS.map((key) => [key, all[key]])) as unknown as RDKitDescriptors;
}
