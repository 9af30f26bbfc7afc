/** Reads a third-party layer's SHA256SUMS ("<sha256>  <path>" lines, as sha256sum writes them). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../lib/chem/third-party-data.ts';

/** The manifest of a layer folder: path → sha256; empty when the folder has none. */
export function readManifest(dir: string): Map<string, string> {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return new Map();
  const entries = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (match) entries.set(match[2], match[1]);
  }
  return entries;
}
