/**
 * Moves the hot path's WAL checkpoints off the event loop. SQLite checkpoints inside the commit that
 * pushes the WAL past 1000 pages: it copies those pages into the database file and fsyncs, ~14 ms during
 * which /mcp answered nothing. Under load that happened several times a second and set the tail
 * latency. Here the hot-path connection turns automatic checkpoints off and a worker thread, with a
 * connection of its own, runs a PASSIVE checkpoint (never blocks writers or readers) every 250 ms.
 * If the worker stops for any reason, the connection goes back to checkpointing by itself.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { errorText, log } from '../ops/log.ts';

const INTERVAL_MS = 250;
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

// Evaluated source rather than a file: it then runs the same from the source tree, from npm start's
// bundle and from Next's bundle of the route mount. The driver is required by its resolved path,
// since an evaluated worker resolves modules from the working directory.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/**
 * The driver's file, resolved at run time. The ignore comment keeps Next's bundler from replacing the
 * resolve with a module id (a number), which the worker could not require: the route mount's worker
 * then failed at start and its connection fell back to inline checkpoints.
 */
const DRIVER_PATH = createRequire(import.meta.url).resolve(/* turbopackIgnore: true */ 'better-sqlite3');

interface Checkpointer {
  /** Runs a last checkpoint and ends the worker. */
  stop(): Promise<void>;
}

export function startCheckpointer(db: Database.Database): Checkpointer {
  db.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driverPath: DRIVER_PATH, file: db.name, intervalMs: INTERVAL_MS },
  });
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', (error) => {
    log('error', 'the SQLite checkpoint worker failed; the hot path checkpoints by itself again', {
      error: errorText(error),
    });
  });
  worker.once('exit', () => {
    if (!stopping && db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  });
  return {
    async stop() {
      stopping = true;
      worker.ref(); // unref'd while running; the last checkpoint must finish before the process may end
      worker.postMessage('stop');
      await exited;
    },
  };
}
