/**
 * Parsed data layers kept between starts. Parsing ChemSep's XML and the NASA YAML, indexing the name
 * table and canonicalising the catalogue's SMILES take about five seconds of CPU in every process that
 * needs them; their results depend only on the files read and on the code that reads them. So each
 * result is written to build/data-cache/ in V8's serialization format, under a key made of the code
 * and the SHA-256 of every file read. A process that finds its key reads the result back in
 * milliseconds; any change to the code or the data makes a new key, and the stale file is removed.
 *
 * The code is the built server's bundle (BUILD_ID_VARIABLE, which scripts/launch.mjs sets to the
 * digest of everything the bundle was built from) or, run from source (tsx: the CLI, `npm run dev`,
 * the tests), the digest of lib/'s source files and package.json (which pins RDKit and the parsers).
 * A cache file that cannot be read is parsed again; a folder that cannot be written parses every time.
 */
import { createHash } from 'node:crypto';
import { type Dirent, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { PROJECT_ROOT } from '../project-root.ts';

/** Set by scripts/launch.mjs for the server it starts: the digest of the bundle's inputs. */
export const BUILD_ID_VARIABLE = 'CHEMFLOW_BUILD_ID';

function parsedDataCacheDir(): string {
  return join(/* turbopackIgnore: true */ PROJECT_ROOT, 'build', 'data-cache');
}

/** Not code: the tests, the generated database clients and the data files, whose digests are taken as they are read. */
const NOT_CODE = new Set(['generated', 'third-party', 'node_modules']);

let sourceDigest: string | undefined;

/** The digest of lib/'s source files (tests aside) and package.json: the code, when it runs unbundled. */
function sourceId(): string {
  if (sourceDigest) return sourceDigest;
  const files: string[] = [join(/* turbopackIgnore: true */ PROJECT_ROOT, 'package.json')];
  const walk = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(/* turbopackIgnore: true */ dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(/* turbopackIgnore: true */ dir, entry.name);
      if (entry.isDirectory()) {
        if (!NOT_CODE.has(entry.name)) walk(path);
      } else if (!entry.name.includes('.test.')) files.push(path);
    }
  };
  walk(join(/* turbopackIgnore: true */ PROJECT_ROOT, 'lib'));
  const hash = createHash('sha256');
  for (const file of files.sort()) hash.update(`${file}\0`).update(readFileSync(/* turbopackIgnore: true */ file));
  sourceDigest = hash.digest('hex');
  return sourceDigest;
}

/** The key of a result: the build and the name and contents of every file it was parsed from. */
function cacheKey(codeId: string, files: readonly string[]): string {
  const hash = createHash('sha256').update(codeId);
  for (const file of files)
    hash
      .update(`\0${file}\0`)
      .update(createHash('sha256').update(readFileSync(/* turbopackIgnore: true */ file)).digest());
  return hash.digest('hex').slice(0, 32);
}

/**
 * `parse()`'s result for `files`, read from the cache when this build parsed the same files before,
 * else parsed and written there. `name` tells the results apart (one file per name is kept). The result
 * must be plain data: objects, arrays, Maps, Sets, strings, numbers and typed arrays, no functions or
 * class instances (V8's serialization keeps no prototypes).
 */
export function cachedParse<T>(
  name: string,
  files: readonly string[],
  parse: () => T,
  dir: string = parsedDataCacheDir(),
): T {
  const codeId = process.env[BUILD_ID_VARIABLE] || sourceId();
  const key = `${name}.${cacheKey(codeId, files)}.`;
  const path = join(/* turbopackIgnore: true */ dir, `${key}v8`);
  try {
    return deserialize(readFileSync(/* turbopackIgnore: true */ path)) as T;
  } catch {
    // Not cached yet (or unreadable): parsed below.
  }
  const result = parse();
  try {
    mkdirSync(/* turbopackIgnore: true */ dir, { recursive: true });
    // Other keys' results, and temporary files a stopped process left (a writer that loses its own
    // here fails its rename below, harmlessly).
    for (const stale of readdirSync(/* turbopackIgnore: true */ dir))
      if (stale.startsWith(`${name}.`) && stale !== `${key}v8`)
        rmSync(/* turbopackIgnore: true */ join(dir, stale), { force: true });
    // Processes starting side by side each write their own temporary file, and a rename is atomic.
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(/* turbopackIgnore: true */ temporary, serialize(result));
    renameSync(/* turbopackIgnore: true */ temporary, path);
  } catch {
    // A read-only installation parses at every start, as before.
  }
  return result;
}
