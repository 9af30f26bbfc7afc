/**
 * `npm start`: migrate and seed the database, mirror the built-in compound data into it and register
 * the imported compounds with the tools, build the web app if needed, and serve the portal and /mcp.
 * On first start it prints the admin's one-time password and a demo key.
 */
import { config } from '../config.ts';
import { databaseUrl, getDb } from '../db/client.ts';
import { prepareCompounds } from '../db/compounds.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { seedDatabase } from '../db/seed.ts';
import { ensureNextBuild } from './next-build.ts';

process.env.NEXT_TELEMETRY_DISABLED = '1';

async function main(): Promise<void> {
  const settings = config();
  const { applied } = await migrateDatabase(databaseUrl());
  if (applied.length) console.log(`Database migrated: ${applied.join(', ')}`);
  const seeded = await seedDatabase(getDb());
  const compounds = await prepareCompounds(getDb());
  const { created, updated, deleted } = compounds.builtin;
  if (created || updated || deleted) console.log(`Built-in compounds stored: ${created} new, ${updated} changed, ${deleted} removed.`);
  if (compounds.served) console.log(`Imported compounds served: ${compounds.served}.`);
  const overridden = new Set(compounds.overridden.map((o) => o.builtin.name));
  for (const { name, reason } of compounds.builtin.blocked) {
    console.warn(`Built-in ${name} is not stored in the table (${overridden.has(name) ? 'an import overrides it' : 'it is still served'}): ${reason}.`);
  }
  for (const { builtin, by } of compounds.overridden) console.warn(`Built-in ${builtin.name} (${builtin.cas}) is overridden by the imported ${by.name} (${by.cas}), served in its place.`);
  for (const { name, reason } of compounds.left) console.warn(`Imported compound ${name} is not served: ${reason}.`);
  ensureNextBuild();
  const { startServer } = await import('../../server.ts');
  await startServer();
  const scheme = settings.tlsCertFile ? 'https' : 'http';
  const url = `${scheme}://localhost:${settings.port}`;
  if (seeded.admin) {
    console.log([
      '',
      'First start: an admin account and a demo key were created. They are shown only now.',
      `  Admin email:        ${seeded.admin.email}`,
      `  One-time password:  ${seeded.admin.password}   (change it at /account after signing in)`,
      `  Demo key (free):    ${seeded.admin.demoKey}`,
      '',
    ].join('\n'));
  }
  console.log(`ChemFlow is serving the portal at ${url}/ and MCP at ${url}/mcp`);
}

main().catch((error) => {
  console.error(`Could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
