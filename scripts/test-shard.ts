/**
 * One shard of in-process test files: imports the files it is given, one after another, so node:test
 * runs them all in this process (see test-runner.ts for why).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) await import(pathToFileURL(resolve(file)).href);
