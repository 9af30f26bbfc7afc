/**
 * The project's root folder: the nearest folder at or above this module's that holds package.json.
 * Searched rather than counted ("../.."), because this module runs both from the source tree (tsx,
 * tests) and bundled into build/server/ by `npm start` (scripts/launch.mjs).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json at or above ${start}`);
  }
}

// Next's server bundle has no import.meta.dirname; it runs with the project root as its working folder.
export const PROJECT_ROOT = findProjectRoot(import.meta.dirname ?? process.cwd());
