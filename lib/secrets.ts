/**
 * Server secrets (the key-hash secret, the Auth.js session secret). Each comes from its environment
 * variable; for the embedded SQLite default it is generated on first start and kept in a file under
 * ./data (mode 0600), outside the database, so a copy of the database alone is not enough to use it.
 * Shared deployments (PostgreSQL) must set the variable on every instance: a generated file would differ
 * per machine.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { databaseProvider, databaseUrl, secretSetting } from './config.ts';

const MIN_SECRET_LENGTH = 32;

interface SecretSpec {
  /** Environment variable holding the secret. */
  envVar: string;
  /** Environment variable naming the file for the generated secret. */
  fileEnvVar: string;
  /** Default file, relative to the working directory. */
  defaultFile: string;
}

/** Auth.js's session secret; also signs the device cookies of the sign-in throttle. */
export const AUTH_SECRET_SPEC: SecretSpec = {
  envVar: 'AUTH_SECRET',
  fileEnvVar: 'AUTH_SECRET_FILE',
  defaultFile: 'data/auth-secret',
};

export function loadOrCreateSecret({ envVar, fileEnvVar, defaultFile }: SecretSpec): string {
  const setting = secretSetting(envVar, fileEnvVar, defaultFile);
  const fromEnv = setting.value;
  if (fromEnv) {
    if (fromEnv.length < MIN_SECRET_LENGTH) {
      throw new Error(`${envVar} must be at least ${MIN_SECRET_LENGTH} characters (use: openssl rand -hex 32)`);
    }
    return fromEnv;
  }
  if (databaseProvider(databaseUrl()) === 'postgresql') {
    throw new Error(
      `${envVar} must be set when DATABASE_URL points at PostgreSQL, and be the same on every instance (use: openssl rand -hex 32)`,
    );
  }
  // The ignore comment stops Next's file tracer from bundling the whole project for this run-time path.
  const file = resolve(/* turbopackIgnore: true */ process.cwd(), setting.file);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  // "wx" fails if another process created the file meanwhile; then that process's secret wins.
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}
