/**
 * One shard of test files: imports the files it is given, one after another, so node:test runs them
 * all in this process (see test-runner.ts for why). Each file is imported inside a suite of its own, named
 * after it: its top-level hooks (before, after, beforeEach…) then belong to that suite and run around its
 * own tests only, as they would in a process of its own, and its after hooks run before the next file starts.
 */
import { relative, resolve } from 'node:path';
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';

// node:test waits for the promise a suite's function returns: the file's tests register while it is imported.
for (const file of process.argv.slice(2))
  describe(relative(process.cwd(), resolve(file)), () => import(pathToFileURL(resolve(file)).href));
