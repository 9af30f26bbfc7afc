/**
 * Where the open-licence data layers live: lib/chem/data/third-party/<layer>/, shipped in the
 * repository byte for byte, each folder with its upstream licence, a NOTICE.md (what, where from, which
 * upstream commit) and a SHA256SUMS manifest (`sha256sum -c` reads it). CHEM_DATA_DIR (lib/config.ts;
 * the server and the CLI pass it to setChemDataDir) may point at another folder of the same layout;
 * nothing is read from outside the checkout by default.
 * `npm run data:update -- <upstream checkout>` (scripts/data-update.ts) copies the files again.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { PROJECT_ROOT } from '../project-root.ts';

/** The shipped layers' folder, relative to the project root. */
export const THIRD_PARTY_DIR = 'lib/chem/data/third-party';

/** Each folder's manifest: "<sha256>  <path>" lines, the format sha256sum writes. */
export const MANIFEST_FILE = 'SHA256SUMS';

/** The layers, by folder (what each holds: data-layers.ts). */
export const DATA_LAYERS = ['coolprop', 'nasa', 'chemsep', 'pubchem-names'] as const;

export type DataLayer = (typeof DATA_LAYERS)[number];

let configured: string | undefined;

/**
 * Points every layer at another folder of the same layout: the server and the CLI pass CHEM_DATA_DIR (chem reads no
 * settings itself), tests a scratch folder; undefined restores the shipped one.
 */
export function setChemDataDir(dir: string | undefined): void {
  configured = dir;
}

/** The folder holding the layers: the one set (absolute, or relative to the project root), else the shipped one. */
function chemDataDir(): string {
  const dir = configured ?? THIRD_PARTY_DIR;
  return isAbsolute(dir) ? dir : join(PROJECT_ROOT, dir);
}

/** One layer's folder. */
export function layerDir(layer: DataLayer): string {
  return join(/* turbopackIgnore: true */ chemDataDir(), layer);
}

export function sha256Of(path: string): string {
  return createHash('sha256').update(readFileSync(/* turbopackIgnore: true */ path)).digest('hex');
}

/** A manifest for files of dir (paths relative to it), sorted by path. */
export function manifestText(dir: string, files: readonly string[]): string {
  return [...files]
    .sort()
    .map((path) => `${sha256Of(join(dir, path))}  ${path}\n`)
    .join('');
}
