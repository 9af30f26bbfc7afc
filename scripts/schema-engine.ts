/**
 * Prisma's real schema engine (the one behind `prisma migrate`), run as WebAssembly over a driver
 * adapter. The native engine cannot be used here: Prisma downloads it on first use and this project must
 * work offline. Tooling only (creating migrations, drift checks); the app never loads this.
 *
 * Two adapter quirks are smoothed over so the engine works on both providers:
 * - SQLite: the engine sends a whole migration script through executeRaw, which better-sqlite3 rejects
 *   ("contains more than one statement"); such scripts are re-sent through executeScript (`exec`).
 * - PostgreSQL: the engine's introspection reads catalog columns of type "char" (OID 18), which
 *   @prisma/adapter-pg refuses to map ("Column type 'char' could not be deserialized"); those columns are
 *   reported as text, which is what a one-byte "char" holds.
 * The PostgreSQL side works in throwaway databases (POSTGRES_ADMIN_URL's server), never in an
 * application database: @prisma/adapter-pg's own connectToShadowDb, given a connection string, opens the
 * shadow pool on the connection string's database, so a migration "replayed in the shadow database" lands
 * in the real one. That was seen happening; do not switch back to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import * as wasmBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';
import type { DatabaseProvider } from '../lib/config.ts';
import { migrationsDir, readMigrations } from '../lib/db/migrations.ts';
import { sqliteFilePath } from '../lib/db/sqlite-file.ts';
import { createScratchDatabase } from './scratch-postgres.ts';

/** No table or enum is managed outside Prisma here. */
export const NO_FILTERS = { externalTables: [], externalEnums: [] };

// wasm-bindgen keeps module-level state: the module must be instantiated once per process.
let engineClass: Promise<typeof SchemaEngine> | undefined;

function loadEngineClass(): Promise<typeof SchemaEngine> {
  engineClass ??= (async () => {
    // The package's entry imports the .wasm file as an ES module, which Node 20 cannot do; instantiate
    // it by hand against the JS glue, as Prisma's CLI does.
    const wasmUrl = new URL('schema_engine_bg.wasm', import.meta.resolve('@prisma/schema-engine-wasm'));
    const module = new WebAssembly.Module(fs.readFileSync(wasmUrl));
    const instance = new WebAssembly.Instance(module, {
      './schema_engine_bg.js': wasmBindings as unknown as WebAssembly.ModuleImports,
    });
    // The engine reports a Rust panic's message through this global before throwing.
    (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY ??= {
      set_message(message: string) {
        console.error(`Prisma schema engine panicked: ${message}`);
      },
    };
    (wasmBindings as unknown as { __wbg_set_wasm(exports: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return wasmBindings.SchemaEngine;
  })();
  return engineClass;
}

/**
 * Runs `use` with an engine for the provider and releases the engine and its scratch databases
 * afterwards. The engine's main database is a scratch one unless `databaseUrl` names a live database
 * (for commands about that database, such as diagnoseMigrationHistory); its shadow database is always
 * a scratch one.
 */
export async function withSchemaEngine<T>(
  provider: DatabaseProvider,
  use: (engine: SchemaEngine) => Promise<T>,
  { databaseUrl }: { databaseUrl?: string } = {},
): Promise<T> {
  const Engine = await loadEngineClass();
  const adapters = provider === 'sqlite' ? new SqliteAdapters(databaseUrl) : new ThrowawayPostgresAdapters(databaseUrl);
  const bound = bindMigrationAwareSqlAdapterFactory(adapters);
  let engine: SchemaEngine | undefined;
  try {
    engine = await Engine.new({ datamodels: undefined }, () => {}, bound);
    return await use(engine);
  } catch (error) {
    throw withAdapterCause(error, bound.errorRegistry);
  } finally {
    engine?.free();
    await adapters.close();
  }
}

/** The provider's migration history in the form the engine takes it. */
export function engineMigrationList(provider: DatabaseProvider): MigrationList {
  const dir = migrationsDir(provider);
  const lockPath = path.join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: {
      path: 'migration_lock.toml',
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null,
    },
    shadowDbInitScript: '',
    migrationDirectories: readMigrations(provider).map((migration) => ({
      path: migration.name,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: migration.sql } },
    })),
  };
}

/**
 * Errors raised inside an adapter reach us as "External error id#N"; the adapter's registry holds the
 * original, whose message is what a person needs to see, so it takes that placeholder's place.
 */
function withAdapterCause(error: unknown, registry: { consumeError(id: number): { error: unknown } | undefined }) {
  if (!(error instanceof Error)) return error;
  error.message = error.message.replace(/External error id#(\d+)/g, (placeholder, id: string) => {
    const original = registry.consumeError(Number(id))?.error;
    if (original === undefined) return placeholder;
    return original instanceof Error ? original.message : JSON.stringify(original);
  });
  return error;
}

/** Scratch databases are private in-memory SQLite databases. */
class SqliteAdapters implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'sqlite';
  readonly adapterName = '@prisma/adapter-better-sqlite3';
  private readonly open = new Set<SqlDriverAdapter>();

  constructor(private readonly databaseUrl?: string) {}

  connect(): Promise<SqlDriverAdapter> {
    return this.connectTo(this.databaseUrl ? sqliteFilePath(this.databaseUrl) : ':memory:');
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.connectTo(':memory:');
  }

  async close(): Promise<void> {
    await disposeAll(this.open);
  }

  private async connectTo(file: string): Promise<SqlDriverAdapter> {
    // The app's adapter settings, so the engine reads the epoch-millisecond timestamps the app writes.
    const factory = new PrismaBetterSqlite3({ url: file }, { timestampFormat: 'unixepoch-ms' });
    return track(this.open, acceptScriptsInExecuteRaw(await factory.connect()));
  }
}

function acceptScriptsInExecuteRaw(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      const isScript = error instanceof RangeError && /more than one statement/.test(error.message);
      if (!isScript || query.args.length > 0) throw error;
      await adapter.executeScript(query.sql);
      return 0;
    }
  };
  return adapter;
}

/** Scratch databases are fresh databases on POSTGRES_ADMIN_URL's server, dropped when released. */
class ThrowawayPostgresAdapters implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';
  private readonly open = new Set<SqlDriverAdapter>();

  constructor(private readonly databaseUrl?: string) {}

  async connect(): Promise<SqlDriverAdapter> {
    if (!this.databaseUrl) return this.connectToShadowDb();
    return track(this.open, await pgAdapter(this.databaseUrl));
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const scratch = await createScratchDatabase('chemflow_engine');
    try {
      return track(this.open, await pgAdapter(scratch.url), scratch.drop);
    } catch (error) {
      await scratch.drop();
      throw error;
    }
  }

  /** Releases what the engine did not release itself (its main database; everything after a failure). */
  async close(): Promise<void> {
    await disposeAll(this.open);
  }
}

/** Keeps `adapter` in `open` until it is disposed; `afterDispose` then runs (e.g. dropping its database). */
function track(
  open: Set<SqlDriverAdapter>,
  adapter: SqlDriverAdapter,
  afterDispose?: () => Promise<void>,
): SqlDriverAdapter {
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    open.delete(adapter);
    try {
      await dispose();
    } finally {
      await afterDispose?.();
    }
  };
  open.add(adapter);
  return adapter;
}

async function disposeAll(open: Set<SqlDriverAdapter>): Promise<void> {
  for (const adapter of [...open]) await adapter.dispose();
}

function pgAdapter(connectionString: string): Promise<SqlDriverAdapter> {
  return new PrismaPg({ connectionString, Client: CharAsTextClient } as pg.PoolConfig).connect();
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/** A pg client that describes "char" result columns as text (see the module comment). */
class CharAsTextClient extends pg.Client {
  // pg has no public hook between the server's row description and the adapter's type mapping, so this
  // overrides the handler for that protocol message (pg 8.x, pinned in package.json).
  _handleRowDescription(message: { fields: { dataTypeID: number }[] }): void {
    for (const field of message.fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    const base = pg.Client.prototype as unknown as { _handleRowDescription(m: unknown): void };
    base._handleRowDescription.call(this, message);
  }
}
