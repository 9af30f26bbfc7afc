/**
 * The one place long-lived services are shared across module copies. server.ts and Next's server bundle
 * each load their own copy of lib/, yet must use one database connection, one limiter, one recorder and
 * one set of counters: server.ts builds them before it listens, and Next's routes and actions find the
 * same objects here, by name. No other module keeps state on globalThis (test/architecture.test.ts).
 */
const HOLDER = Symbol.for('chemflow.shared');

function slots(): Map<string, unknown> {
  const holder = globalThis as { [HOLDER]?: Map<string, unknown> };
  holder[HOLDER] ??= new Map();
  return holder[HOLDER];
}

/** The process's `name`, made by `create` the first time any copy of lib/ asks for it. */
export function processShared<T>(name: string, create: () => T): T {
  const shared = slots();
  if (!shared.has(name)) shared.set(name, create());
  return shared.get(name) as T;
}

/** Forgets `name` (after closing it) and answers what it held, so the next ask makes a new one. */
export function releaseProcessShared<T>(name: string): T | undefined {
  const shared = slots();
  const value = shared.get(name) as T | undefined;
  shared.delete(name);
  return value;
}
