/**
 * `npm run data:update` on a small upstream checkout made here (a git repository laid out like
 * CoolProp's), into a scratch target folder: never the shipped one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { MANIFEST_FILE, sha256Of, THIRD_PARTY_DIR } from '../lib/chem/third-party-data.ts';
import { PROJECT_ROOT } from '../lib/project-root.ts';
import { readManifest } from '../test/support/manifest.ts';
import { UPSTREAMS, updateFolder } from './data-update.ts';

const scratch = mkdtempSync(join(tmpdir(), 'data-update-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const coolprop = UPSTREAMS.find((u) => u.folder === 'coolprop')!;

/** Upstream path → content of a small CoolProp-like checkout; the README is not one of the files taken. */
const UPSTREAM_FILES: Record<string, string> = {
  'dev/fluids/Water.json': '{"INFO": {"CAS": "7732-18-5"}}\n',
  'dev/fluids/Argon.json': '{"INFO": {"CAS": "7440-37-1"}}\r\n',
  'dev/fluids/README.md': 'not a fluid\n',
  'CoolPropBibTeXLibrary.bib': '@article{Wagner-JPCRD-2002, title = {IAPWS-95}}\n',
  LICENSE: 'MIT, for the test\n',
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', '-c', 'init.defaultBranch=main', ...args],
    { cwd, encoding: 'utf8' },
  ).trim();
}

/** A git checkout holding files (upstream path → content), committed; returns its folder and HEAD. */
function checkout(name: string, files: Record<string, string>): { dir: string; head: string } {
  const dir = join(scratch, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'fixture');
  return { dir, head: git(dir, 'rev-parse', 'HEAD') };
}

/** A target root whose coolprop/ holds the shipped NOTICE, a stale fluid file and an out-of-date manifest. */
function target(name: string): string {
  const root = join(scratch, name);
  const dir = join(root, 'coolprop');
  mkdirSync(join(dir, 'fluids'), { recursive: true });
  copyFileSync(join(PROJECT_ROOT, THIRD_PARTY_DIR, 'coolprop', 'NOTICE.md'), join(dir, 'NOTICE.md'));
  writeFileSync(join(dir, 'fluids', 'Gone.json'), '{}\n');
  writeFileSync(join(dir, MANIFEST_FILE), `${'0'.repeat(64)}  fluids/Gone.json\n`);
  return root;
}

test('copies the files byte for byte, removes a stale one, rewrites the manifest and the NOTICE commit', () => {
  const upstream = checkout('coolprop-checkout', UPSTREAM_FILES);
  const root = target('updated');
  const dir = join(root, 'coolprop');
  const said = updateFolder(coolprop, upstream.dir, root);
  assert.match(said, new RegExp(`^coolprop: 4 files from CoolProp/CoolProp at ${upstream.head}$`));

  const taken = {
    'fluids/Water.json': 'dev/fluids/Water.json',
    'fluids/Argon.json': 'dev/fluids/Argon.json',
    'CoolPropBibTeXLibrary.bib': 'CoolPropBibTeXLibrary.bib',
    LICENSE: 'LICENSE',
  };
  for (const [to, from] of Object.entries(taken))
    assert.ok(readFileSync(join(dir, to)).equals(readFileSync(join(upstream.dir, from))), to);
  assert.deepEqual(readdirSync(join(dir, 'fluids')).sort(), ['Argon.json', 'Water.json'], 'Gone.json is removed');

  const manifest = readManifest(dir);
  assert.deepEqual([...manifest.keys()].sort(), Object.keys(taken).sort());
  for (const [path, sum] of manifest) assert.equal(sha256Of(join(dir, path)), sum, path);
  // sha256sum itself accepts it, as the NOTICE tells a reader to check.
  execFileSync('sha256sum', ['--check', '--strict', '--quiet', MANIFEST_FILE], { cwd: dir });

  const notice = readFileSync(join(dir, 'NOTICE.md'), 'utf8');
  assert.match(notice, new RegExp(`^- \\*\\*Upstream commit:\\*\\* \`${upstream.head}\`$`, 'm'));
  assert.equal(notice.match(/[0-9a-f]{40}/g)?.length, 1, 'no other commit is left in the NOTICE');
});

test('a checkout lacking one of the files is refused with a message, and the target is left as it was', () => {
  const { LICENSE: _, ...withoutLicence } = UPSTREAM_FILES;
  const upstream = checkout('incomplete-checkout', withoutLicence);
  const root = target('refused');
  const before = readFileSync(join(root, 'coolprop', MANIFEST_FILE), 'utf8');
  assert.throws(() => updateFolder(coolprop, upstream.dir, root), {
    message: `${upstream.dir} lacks LICENSE: is it a full CoolProp/CoolProp checkout?`,
  });
  assert.deepEqual(readdirSync(join(root, 'coolprop', 'fluids')), ['Gone.json']);
  assert.equal(readFileSync(join(root, 'coolprop', MANIFEST_FILE), 'utf8'), before);
});
