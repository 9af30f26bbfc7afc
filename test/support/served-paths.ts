/**
 * Every path the production server answers, for the suites that must reach all of them: Next's routes
 * as its build wrote them (.next/app-path-routes-manifest.json for the app router, .next/routes-manifest.json
 * for what the router matches, .next/server/pages-manifest.json for pages-router leftovers), plus the
 * paths server.ts answers itself, plus one no route matches. Dynamic segments get sample values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OAUTH_PATHS } from '../../lib/oauth/paths.ts';
import { ROOT } from './test-server.ts';

const readJson = (file: string) => JSON.parse(readFileSync(join(ROOT, '.next', file), 'utf8'));

/**
 * Routes whose sample must be a path the route takes as real: Auth.js logs any action it does not know
 * as an error, and the sign-in callback and sign-out are what an attacker posts to.
 */
const SAMPLES: Record<string, string[]> = {
  '/api/auth/[...nextauth]': ['/api/auth/callback/credentials', '/api/auth/signout'],
};

/** "/keys/[id]" → "/keys/sample"; a catch-all segment → "sample/sample". */
function concrete(route: string): string[] {
  return SAMPLES[route] ?? [route.replace(/\[\[?\.\.\.[^\]]+\]\]?/g, 'sample/sample').replace(/\[[^\]]+\]/g, 'sample')];
}

/** The paths server.ts serves without Next (POST /mcp, OAuth's documents and endpoints). */
export const SERVER_OWN_PATHS = ['/mcp', ...OAUTH_PATHS];

/** A path no route matches: it falls to the default cap. */
export const UNKNOWN_PATH = '/no/such/path';

export function servedPaths(): string[] {
  const appRoutes = Object.values(readJson('app-path-routes-manifest.json') as Record<string, string>);
  const routes = readJson('routes-manifest.json') as {
    staticRoutes: { page: string }[];
    dynamicRoutes: { page: string }[];
  };
  const pages = Object.keys(readJson('server/pages-manifest.json') as Record<string, string>);
  const all = [...appRoutes, ...routes.staticRoutes.map((r) => r.page), ...routes.dynamicRoutes.map((r) => r.page)];
  return [...new Set([...all, ...pages].flatMap(concrete).concat(SERVER_OWN_PATHS, UNKNOWN_PATH))].sort();
}
