/**
 * The Compound table on both providers: the built-in data is mirrored idempotently and fast, follows
 * changes to the data files without touching imported rows, and imports are written whole or not at
 * all, with conflicts reported and left unwritten.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migratedScratchDb } from '../../test/support/migrated-db.ts';
import { allCompounds, type Compound } from '../chem/compounds.ts';
import { findCompound } from '../chem/lookup.ts';
import { setRegisteredCompounds } from '../chem/registered-compounds.ts';
import { queryCompoundTool } from '../chem/tools/query-compound.ts';
import type { DatabaseProvider } from '../config.ts';
import type { Db } from '../db/client.ts';
import { type ImportRecord, importCompounds } from './import.ts';
import { compoundFromRow, loadImportedCompounds } from './read.ts';
import { checkCompound } from './registration.ts';
import { BUILTIN_ORIGIN } from './rows.ts';
import { prepareCompounds } from './startup.ts';
import { compoundColumns, loadBuiltinCompounds } from './write.ts';

const PROVIDERS: DatabaseProvider[] = ['sqlite', 'postgresql'];

/** A made-up compound: invented values, a ¹³C-labelled SMILES and CAS numbers no built-in compound will take. */
function madeUp(name: string, cas: string, smiles: string, extra: Partial<Compound> = {}): Compound {
  return checkCompound({
    name,
    cas,
    formula: 'C7H16O',
    smiles,
    synonyms: [],
    properties: {
      molecular_weight: { value: 116.204, unit: 'g/mol', source: 'test' },
      critical_temperature: { value: 601.5, unit: 'K', source: 'invented for this test' },
    },
    ...extra,
  });
}

/** A process's first transaction pays Prisma's one-time set-up; the timings below measure the load itself. */
async function warmUp(db: Db): Promise<void> {
  await loadBuiltinCompounds(db, [madeUp('warm-up', '9999997-99-9', '[13CH3]CCCCCC(C)O')]);
}

/** A CAS number with its check digit, for made-up compounds. */
function cas(digits: string): string {
  const check = [...digits].reverse().reduce((sum, d, i) => sum + Number(d) * (i + 1), 0) % 10;
  return `${digits.slice(0, -2)}-${digits.slice(-2)}-${check}`;
}

/** `n` made-up compounds shaped like the built-in data, to measure the load at the size it is heading for. */
function manyCompounds(n: number): Compound[] {
  return Array.from({ length: n }, (_, i) => ({
    ...allCompounds()[i % allCompounds().length],
    name: `made-up compound ${i}`,
    cas: cas(String(1_000_000 + i)),
    smiles: `C${'C'.repeat(i)}`,
    synonyms: [`mc-${i}`],
  }));
}

const record = (n: number, compound: Compound): ImportRecord => ({ where: `row ${n}`, compound });

const IMPORT = { format: 'csv' as const, fileName: 'mine.csv', fileHash: 'f'.repeat(64) };

for (const provider of PROVIDERS) {
  describe(`compounds table (${provider})`, () => {
    it('mirrors the built-in data: first load inserts all, the second changes nothing, both fast', async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      const builtins = allCompounds();
      await warmUp(db);
      let started = performance.now();
      const first = await loadBuiltinCompounds(db);
      const firstMs = performance.now() - started;
      assert.deepEqual(first, { created: builtins.length, updated: 0, deleted: 1, unchanged: 0, blocked: [] });

      started = performance.now();
      const second = await loadBuiltinCompounds(db);
      const secondMs = performance.now() - started;
      assert.deepEqual(second, { created: 0, updated: 0, deleted: 0, unchanged: builtins.length, blocked: [] });
      t.diagnostic(
        `${builtins.length} built-in compounds: first load ${firstMs.toFixed(0)} ms, unchanged reload ${secondMs.toFixed(0)} ms`,
      );
      assert.ok(firstMs < 5000, `first load took ${firstMs.toFixed(0)} ms`);
      assert.ok(secondMs < 1000, `an unchanged reload (every start) took ${secondMs.toFixed(0)} ms`);

      // What is stored reads back as the very compound the files hold.
      const rows = await db.compound.findMany({ where: { origin: BUILTIN_ORIGIN } });
      assert.equal(rows.length, builtins.length);
      for (const compound of builtins) {
        const row = rows.find((r) => r.name === compound.name)!;
        assert.deepEqual(compoundFromRow(row), compound, compound.name);
        // Rows are inserted with raw SQL: their timestamps must read back through Prisma as the present.
        assert.ok(
          Math.abs(row.createdAt.getTime() - Date.now()) < 120_000,
          `${compound.name} createdAt ${row.createdAt.toISOString()}`,
        );
      }
    });

    it('loads 600 compounds in seconds at most, and reloads them unchanged in a fraction of that', async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      await warmUp(db);
      const compounds = manyCompounds(600);
      let started = performance.now();
      assert.equal((await loadBuiltinCompounds(db, compounds)).created, 600);
      const firstMs = performance.now() - started;
      started = performance.now();
      assert.equal((await loadBuiltinCompounds(db, compounds)).unchanged, 600);
      const secondMs = performance.now() - started;
      t.diagnostic(`600 compounds: first load ${firstMs.toFixed(0)} ms, unchanged reload ${secondMs.toFixed(0)} ms`);
      assert.ok(firstMs < 5000, `first load took ${firstMs.toFixed(0)} ms`);
      assert.ok(secondMs < 1000, `an unchanged reload took ${secondMs.toFixed(0)} ms`);
    });

    it('follows the data files: a changed value updates its row, a removed compound is deleted, imports stay', async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      const [first, second, ...rest] = allCompounds();
      await loadBuiltinCompounds(db, [first, second, ...rest]);
      const imported = madeUp('testolane', '9999999-99-5', '[13CH3]CCCCCCO');
      await importCompounds(db, { ...IMPORT, records: [record(2, imported)] });

      const changedFirst: Compound = {
        ...first,
        properties: {
          ...first.properties,
          critical_temperature: { value: 999.5, unit: 'K', source: 'changed in this test' },
        },
      };
      const before = await db.compound.findUniqueOrThrow({ where: { name: first.name } });
      const sync = await loadBuiltinCompounds(db, [changedFirst, ...rest]);
      assert.deepEqual(sync, { created: 0, updated: 1, deleted: 1, unchanged: rest.length, blocked: [] });
      const after = await db.compound.findUniqueOrThrow({ where: { name: first.name } });
      assert.equal(after.id, before.id);
      assert.equal(JSON.parse(after.properties).critical_temperature.value, 999.5);
      assert.equal(await db.compound.count({ where: { name: second.name } }), 0);
      assert.deepEqual((await loadImportedCompounds(db)).compounds, [imported]);
    });

    it('what start-up does: imported rows are registered and served by service_query_compound; clashing ones are left out, named', async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      t.after(() => setRegisteredCompounds([]));
      await loadBuiltinCompounds(db);
      const imported = madeUp('testolane', '9999999-99-5', '[13CH3]CCCCCCO', { synonyms: ['test alcohol'] });
      await importCompounds(db, { ...IMPORT, records: [record(2, imported)] });
      // A row the importer would have refused (e.g. written before the built-in data had the compound).
      const builtin = allCompounds()[0];
      await db.compound.create({
        data: {
          ...compoundColumns(madeUp('shadowed', '9999998-99-2', '[13CH3]C(C)CCCCO', { synonyms: [builtin.name] })),
          origin: 'import:csv:old.csv',
        },
      });

      const startup = await prepareCompounds(db);
      assert.equal(startup.served, 1);
      assert.deepEqual(startup.left, [
        { name: 'shadowed', reason: `synonym "${builtin.name}" is the name of built-in ${builtin.name}` },
      ]);
      assert.equal(findCompound('Test Alcohol').compound.name, 'testolane');
      const result = await queryCompoundTool.run({ compound_name: '9999999-99-5' });
      assert.equal(result.name, 'testolane');
      assert.deepEqual(result.properties.critical_temperature, {
        value: 601.5,
        unit: 'K',
        source: 'invented for this test',
      });
      assert.equal(findCompound(builtin.name).compound, builtin);
    });

    it('a renamed built-in is replaced, and one whose name an import holds is reported, not stored', async (t) => {
      const db = await migratedScratchDb(t, provider);
      if (!db) return;
      const [first, ...rest] = allCompounds();
      await loadBuiltinCompounds(db, [first, ...rest]);
      const renamed = { ...first, name: `${first.name} (renamed)` };
      assert.deepEqual(await loadBuiltinCompounds(db, [renamed, ...rest]), {
        created: 1,
        updated: 0,
        deleted: 1,
        unchanged: rest.length,
        blocked: [],
      });

      const squatter = madeUp('testolane', '9999999-99-5', '[13CH3]CCCCCCO');
      await importCompounds(db, { ...IMPORT, records: [record(2, squatter)] });
      const newBuiltin = madeUp('testolane', '9999998-99-2', 'OCCCCCC[13CH3]');
      const sync = await loadBuiltinCompounds(db, [renamed, ...rest, newBuiltin]);
      assert.equal(sync.created, 0);
      assert.match(sync.blocked[0].reason, /imported compound testolane \(import:csv:mine\.csv\) holds its name/);
      assert.equal(
        (await db.compound.findUniqueOrThrow({ where: { name: 'testolane' } })).origin,
        'import:csv:mine.csv',
      );
    });
  });
}
