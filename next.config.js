/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Native drivers and the generated Prisma clients load from node_modules at run time, not from the bundle.
  serverExternalPackages: ['better-sqlite3', 'pg', '@prisma/client', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg'],
  turbopack: { root: import.meta.dirname },
};

export default nextConfig;
