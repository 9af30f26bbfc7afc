/**
 * Copies open-licence data from an upstream checkout into lib/chem/data/third-party/<folder>/, byte for
 * byte, and rewrites that folder's SHA256SUMS (the manifest lib/chem/third-party-data.test.ts checks)
 * and the commit line of its NOTICE.md:
 *
 *   npm run data:update -- <upstream checkout> [<upstream checkout>…]
 *
 * The upstream is recognised by what the checkout holds (see UPSTREAMS). Files the upstream no longer
 * has are removed from the folder; nothing is edited. The checkout must be a work tree (a `git clone`);
 * its HEAD commit is written into the NOTICE so that anyone can redo the copy.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { MANIFEST_FILE, manifestText, THIRD_PARTY_DIR } from '../lib/chem/third-party-data.ts';
import { PROJECT_ROOT } from '../lib/project-root.ts';

interface Upstream {
  /** Folder under lib/chem/data/third-party/. */
  folder: string;
  repository: string;
  /** A path whose presence in a checkout says it is this upstream. */
  marker: string;
  /** Upstream path → folder path, for every file taken. */
  files(checkout: string): { from: string; to: string }[];
}

const inDir = (checkout: string, dir: string, keep: (name: string) => boolean) =>
  readdirSync(join(checkout, dir)).filter(keep).sort();

export const UPSTREAMS: readonly Upstream[] = [
  {
    folder: 'coolprop',
    repository: 'CoolProp/CoolProp',
    marker: 'dev/fluids',
    files: (checkout) => [
      ...inDir(checkout, 'dev/fluids', (name) => name.endsWith('.json')).map((name) => ({
        from: `dev/fluids/${name}`,
        to: `fluids/${name}`,
      })),
      { from: 'CoolPropBibTeXLibrary.bib', to: 'CoolPropBibTeXLibrary.bib' },
      { from: 'LICENSE', to: 'LICENSE' },
    ],
  },
  {
    folder: 'nasa',
    repository: 'Cantera/cantera',
    marker: 'data/nasa_gas.yaml',
    files: () => [
      { from: 'data/nasa_gas.yaml', to: 'nasa_gas.yaml' },
      { from: 'License.txt', to: 'License.txt' },
    ],
  },
  {
    folder: 'pubchem-names',
    repository: 'CalebBell/chemicals',
    marker: 'chemicals/Identifiers',
    files: () => [
      ...[
        'chemical identifiers pubchem small.tsv',
        'chemical identifiers example user db.tsv',
        'Inorganic db.tsv',
        'Anion db.tsv',
        'Cation db.tsv',
        'Mixtures Compositions.tsv',
      ].map((name) => ({ from: `chemicals/Identifiers/${name}`, to: name })),
      { from: 'LICENSE.txt', to: 'LICENSE.txt' },
    ],
  },
];

/** Every file of a folder, relative to it, but for the manifest itself. */
function folderFiles(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return folderFiles(dir, path);
    return path === MANIFEST_FILE ? [] : [path];
  });
}

function headCommit(checkout: string): string {
  return execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

/** Copies one upstream's files, removes what it no longer has, rewrites the manifest and the NOTICE's commit. */
export function updateFolder(upstream: Upstream, checkout: string, root = join(PROJECT_ROOT, THIRD_PARTY_DIR)): string {
  const dir = join(root, upstream.folder);
  const files = upstream.files(checkout);
  const missing = files.filter((f) => !existsSync(join(checkout, f.from)));
  if (missing.length > 0)
    throw new Error(
      `${checkout} lacks ${missing.map((f) => f.from).join(', ')}: is it a full ${upstream.repository} checkout?`,
    );
  const taken = new Set(files.map((f) => f.to));
  if (existsSync(dir)) {
    for (const path of folderFiles(dir)) {
      // The folder's own files stay: its NOTICE and git settings.
      if (!taken.has(path) && !['NOTICE.md', '.gitattributes'].includes(path)) rmSync(join(dir, path));
    }
  }
  for (const { from, to } of files) {
    mkdirSync(join(dir, to, '..'), { recursive: true });
    copyFileSync(join(checkout, from), join(dir, to));
  }
  writeFileSync(
    join(dir, MANIFEST_FILE),
    manifestText(
      dir,
      folderFiles(dir).filter((p) => p !== 'NOTICE.md'),
    ),
  );
  const commit = headCommit(checkout);
  const notice = join(dir, 'NOTICE.md');
  if (existsSync(notice)) {
    const text = readFileSync(notice, 'utf8');
    writeFileSync(notice, text.replace(/(Upstream commit:\*\* `)[0-9a-f]{40}(`)/, `$1${commit}$2`));
  }
  return `${upstream.folder}: ${files.length} files from ${upstream.repository} at ${commit}`;
}

if (process.argv[1] === import.meta.filename) {
  const checkouts = process.argv.slice(2);
  if (checkouts.length === 0) {
    console.error('Usage: npm run data:update -- <upstream checkout> [<upstream checkout>…]');
    console.error(`Upstreams: ${UPSTREAMS.map((u) => `${u.repository} (→ ${u.folder}/)`).join(', ')}`);
    process.exit(2);
  }
  for (const checkout of checkouts) {
    const upstream = UPSTREAMS.find((u) => existsSync(join(checkout, u.marker)));
    if (!upstream) {
      console.error(
        `${checkout} is none of ${UPSTREAMS.map((u) => u.repository).join(', ')} (no ${UPSTREAMS.map((u) => u.marker).join(', ')} in it).`,
      );
      process.exit(1);
    }
    console.log(updateFolder(upstream, checkout));
    console.log(
      `  now: ${relative(PROJECT_ROOT, join(PROJECT_ROOT, THIRD_PARTY_DIR, upstream.folder))}/ (${basename(checkout)})`,
    );
  }
}
