/**
 * The SQLite file behind a `file:` DATABASE_URL, and the connection settings every opener of that file
 * uses (Prisma's adapter, the migration runner, the raw better-sqlite3 hot path), so they agree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

/**
 * WAL lets readers run while one writer commits (measured ~5x faster inserts than the rollback journal,
 * docs/architecture.md); synchronous=NORMAL is the durable-enough pairing for WAL (a committed transaction
 * survives the process being killed; only an OS crash or power loss can take the last ones back);
 * busy_timeout makes a second writer wait instead of failing at once. journal_mode is stored in the
 * file, the others are per connection, so every connection runs all of them.
 *
 * The wait is a synchronous sleep inside SQLite: in the server it stalls the whole event loop, /mcp
 * included. So the 5 s default is for the CLI and the migration runner, which have nothing else to do;
 * the server's connections set shorter ones (client.ts, hot-path-sqlite.ts).
 */
export function sqlitePragmas(busyTimeoutMs = 5000): string {
  return `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = ${busyTimeoutMs};`;
}

/**
 * Absolute path of the file a `file:` URL names. Relative paths (`file:./data/x.db`, `file:x.db`)
 * resolve against the working directory; `file:/abs/x.db` and `file:///abs/x.db` are absolute.
 * Query parameters (Prisma-style `?connection_limit=1`) are ignored.
 */
export function sqliteFilePath(url: string): string {
  if (!/^file:/i.test(url)) throw new Error(`Not a SQLite file URL (expected file:…): ${url}`);
  const withoutQuery = url.replace(/\?.*$/, '');
  if (/^file:\/\//i.test(withoutQuery)) return fileURLToPath(withoutQuery);
  return path.resolve(/* turbopackIgnore: true */ process.cwd(), withoutQuery.slice('file:'.length));
}

/** Opens (creating if needed, with its folder) the SQLite file with the shared settings. */
export function openSqliteFile(url: string): Database.Database {
  const file = sqliteFilePath(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.exec(sqlitePragmas());
  return db;
}
