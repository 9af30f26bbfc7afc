/**
 * Parsed data layers kept between starts of the built server. Parsing ChemSep's XML, the NASA YAML
 * and indexing the name table take about four seconds of CPU at every start; their results depend
 * only on the files read and on the code that reads them. So each result is written to
 * build/data-cache/ in V8's serialization format, under a key made of the build (BUILD_ID_VARIABLE,
 * which scripts/launch.mjs sets to the digest of everything the server bundle was built from) and
 * the SHA-256 of every file read. A start that finds its key reads the result back in milliseconds;
 * any change to the code or the data makes a new key, and the stale file is removed.
 *
 * Without a build id (tsx: the tests, `npm run dev`, the CLI) nothing is cached: the source can change
 * between runs without a build to say so. A cache file that cannot be read is parsed again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { PROJECT_ROOT } from '../project-root.ts';

/** Set by scripts/launch.mjs for the server it starts: the digest of the bundle's inputs. */
export const BUILD_ID_VARIABLE = 'CHEMFLOW_BUILD_ID';

export function parsedDataCacheDir(): string {
  return join(/* turbopackIgnore: true */ PROJECT_ROOT, 'build', 'data-cache');
}

/** The key of a result: the build and the name and contents of every file it was parsed from. */
function cacheKey(buildId: string, files: readonly string[]): string {
  const hash = createHash('sha256').update(buildId);
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
  const buildId = process.env[BUILD_ID_VARIABLE];
  if (!buildId) return parse();
  const key = `${name}.${cacheKey(buildId, files)}.`;
  const path = join(/* turbopackIgnore: true */ dir, `${key}v8`);
  try {
    return deserialize(readFileSync(/* turbopackIgnore: true */ path)) as T;
  } catch {
    // Not cached yet (or unreadable): parsed below.
  }
  const result = parse();
  try {
    mkdirSync(/* turbopackIgnore: true */ dir, { recursive: true });
    for (const stale of readdirSync(/* turbopackIgnore: true */ dir))
      if (stale.startsWith(`${name}.`) && !stale.startsWith(key))
        rmSync(/* turbopackIgnore: true */ join(dir, stale), { force: true });
    // Servers starting side by side each write their own temporary file, and a rename is atomic.
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(/* turbopackIgnore: true */ temporary, serialize(result));
    renameSync(/* turbopackIgnore: true */ temporary, path);
  } catch {
    // A read-only installation parses at every start, as before.
  }
  return result;
}
