// test-isolation: process (it checks that RDKit's WASM is loaded once per process, from node_modules)
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { test } from 'node:test';
import {
  canonicalSmiles,
  descriptors,
  formalCharge,
  guarded,
  inchiElementCounts,
  inchiIdentity,
  loadedRDKit,
  loadRDKit,
  MAX_HEAVY_ATOMS,
  MAX_SMILES_LENGTH,
  type Molecule,
  withMolecule,
} from './rdkit.ts';
import { ToolError } from './tool.ts';

test('loads the WASM from node_modules without touching the network, once per process', async () => {
  const attempts: string[] = [];
  const refuse = (what: string) => () => {
    attempts.push(what);
    throw new Error(`network access attempted: ${what}`);
  };
  const saved = {
    fetch: globalThis.fetch,
    httpRequest: http.request,
    httpGet: http.get,
    httpsRequest: https.request,
    httpsGet: https.get,
    netConnect: net.connect,
    netCreateConnection: net.createConnection,
  };
  globalThis.fetch = refuse('fetch') as typeof fetch;
  http.request = refuse('http.request') as typeof http.request;
  http.get = refuse('http.get') as typeof http.get;
  https.request = refuse('https.request') as typeof https.request;
  https.get = refuse('https.get') as typeof https.get;
  net.connect = refuse('net.connect') as typeof net.connect;
  net.createConnection = refuse('net.createConnection') as typeof net.createConnection;
  try {
    assert.equal(loadedRDKit(), undefined);
    const [a, b] = await Promise.all([loadRDKit(), loadRDKit()]);
    assert.equal(a, b);
    assert.equal(await loadRDKit(), a);
    assert.equal(loadedRDKit(), a);
    assert.match(a.version(), /^2026\.09\.1/);
  } finally {
    Object.assign(globalThis, { fetch: saved.fetch });
    Object.assign(http, { request: saved.httpRequest, get: saved.httpGet });
    Object.assign(https, { request: saved.httpsRequest, get: saved.httpsGet });
    Object.assign(net, { connect: saved.netConnect, createConnection: saved.netCreateConnection });
  }
  assert.deepEqual(attempts, []);
});

test('canonical SMILES: one string for every way of writing a molecule', async () => {
  await loadRDKit();
  assert.equal(canonicalSmiles('OCC'), canonicalSmiles('CCO'));
  assert.equal(canonicalSmiles('C1=CC=CC=C1'), canonicalSmiles('c1ccccc1'));
  assert.equal(canonicalSmiles('[H]OC([H])([H])C([H])([H])[H]'), 'CCO');
  assert.equal(canonicalSmiles('C1CC'), undefined);
});

test('an unparseable SMILES is an invalid_arguments ToolError quoting RDKit', async () => {
  await loadRDKit();
  const rejects = (smiles: string, reason: RegExp) =>
    assert.throws(
      () => withMolecule(smiles, () => 0),
      (e: unknown) => e instanceof ToolError && e.code === 'invalid_arguments' && reason.test(e.message),
      smiles,
    );
  rejects('C1CC', /unclosed ring/);
  rejects('CC)C', /extra close parentheses/);
  rejects('c1cccc1', /kekulize/);
  rejects('C(C)(C)(C)(C)C', /valence/);
  rejects('Xx', /syntax error/);
  rejects('   ', /empty/);
  // One short reason, not RDKit's log: no repeated input, caret line or "Failed parsing" line.
  for (const smiles of ['C1CC', 'CC)C', 'Xx', 'caffeine'])
    assert.throws(
      () => withMolecule(smiles, () => 0),
      (e: unknown) => e instanceof ToolError && !/\n|SMILES Parse Error|Failed parsing|~\^/.test(e.message),
      smiles,
    );
  // A name where a SMILES goes points to compound_name; a broken SMILES does not.
  rejects('caffeine', /syntax error.*position 2\)\. If "caffeine" is a compound name, pass it as compound_name/);
  rejects('acetic acid', /pass it as compound_name/);
  assert.throws(
    () => withMolecule('C1CC', () => 0),
    (e: unknown) => e instanceof ToolError && !/compound_name/.test(e.message),
  );
  // A failure leaves nothing behind in the log for the next, valid, parse.
  assert.equal(
    withMolecule('CCO', (m) => m.get_smiles()),
    'CCO',
  );
});

test('molecules are deleted after use, also when the callback throws', async () => {
  await loadRDKit();
  let kept: Molecule | undefined;
  withMolecule('CCO', (m) => (kept = m));
  assert.equal(kept!.isDeleted(), true);
  assert.throws(() =>
    withMolecule('CCO', (m) => {
      kept = m;
      throw new Error('boom');
    }),
  );
  assert.equal(kept!.isDeleted(), true);
});

test('formula from the InChI formula layer, corrected by the proton layer', async () => {
  await loadRDKit();
  const id = (smiles: string) => withMolecule(smiles, (m) => inchiIdentity(m));
  assert.deepEqual(
    { ...id('CC(=O)Oc1ccccc1C(=O)O'), elementCounts: undefined },
    {
      inchi: 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)',
      inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', // aspirin, as PubChem lists it
      formula: 'C9H8O4',
      elementCounts: undefined,
      isotopic: false,
    },
  );
  assert.equal(id('[Na+].[Cl-]')?.formula, 'ClNa');
  assert.equal(id('CC(=O)[O-]')?.formula, 'C2H3O2');
  assert.equal(id('[NH4+]')?.formula, 'H4N');
  assert.equal(id('CC.CC')?.formula, 'C4H12');
  assert.equal(id('[Ar]')?.formula, 'Ar');
  assert.equal(id('[2H]O[2H]')?.isotopic, true);
  assert.deepEqual(inchiElementCounts('InChI=1S/2Na.H2O4S/c;;1-5(2,3)4/h;;(H2,1,2,3,4)/q2*+1;/p-2'), {
    Na: 2,
    O: 4,
    S: 1,
  });
  assert.deepEqual(inchiElementCounts('InChI=1S/p+1'), { H: 1 });
});

test('formal charge and descriptors', async () => {
  await loadRDKit();
  assert.equal(withMolecule('CC(=O)[O-]', formalCharge), -1);
  assert.equal(withMolecule('[NH4+].[Cl-]', formalCharge), 0);
  const d = withMolecule('CC(=O)Oc1ccccc1C(=O)O', descriptors);
  assert.ok(Math.abs(d.exactmw - 180.04226) < 1e-5, `${d.exactmw}`);
  assert.ok(Math.abs(d.tpsa - 63.6) < 0.05, `${d.tpsa}`);
  assert.equal(d.NumHeavyAtoms, 13);
  assert.equal(d.NumAtoms, 21);
});

test('structures beyond the size limits are out_of_range, before RDKit sees them', async () => {
  await loadRDKit();
  const tooLarge = (smiles: string, reason: RegExp) =>
    assert.throws(
      () => withMolecule(smiles, () => 0),
      (e: unknown) => e instanceof ToolError && e.code === 'out_of_range' && reason.test(e.message),
    );
  tooLarge('C'.repeat(MAX_SMILES_LENGTH + 1), /longer than 500 characters/);
  tooLarge('C'.repeat(MAX_HEAVY_ATOMS + 1), /201 heavy atoms; at most 200/);
  assert.equal(
    withMolecule('C'.repeat(MAX_HEAVY_ATOMS), (m) => m.get_num_atoms(true)),
    MAX_HEAVY_ATOMS,
  );
});

test('a WebAssembly trap drops the module, and the next load starts a working one', async () => {
  const before = await loadRDKit();
  // Past the limits on purpose: this chain overflows MinimalLib's stack (see MAX_HEAVY_ATOMS).
  assert.throws(
    () => guarded(() => before.get_mol('C'.repeat(1200))),
    (e: unknown) => e instanceof ToolError && /RDKit failed while processing/.test(e.message),
  );
  assert.equal(loadedRDKit(), undefined);
  const after = await loadRDKit();
  assert.notEqual(after, before);
  assert.equal(canonicalSmiles('OCC'), 'CCO');
});
