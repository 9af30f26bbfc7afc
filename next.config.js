/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Native drivers, the generated Prisma clients and RDKit's WASM load from node_modules at run time, not from the bundle.
  serverExternalPackages: ['better-sqlite3', 'pg', '@prisma/client', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg', '@rdkit/rdkit', 'ioredis'],
  turbopack: { root: import.meta.dirname },
};

export default nextConfig;
