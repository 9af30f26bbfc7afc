/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Native drivers, the generated Prisma clients and RDKit's WASM load from node_modules at run time, not from the bundle.
  serverExternalPackages: [
    'better-sqlite3',
    'pg',
    '@prisma/client',
    '@prisma/adapter-better-sqlite3',
    '@prisma/adapter-pg',
    '@rdkit/rdkit',
    'ioredis',
  ],
  turbopack: { root: import.meta.dirname },
  // The leaked-keys form takes pastes of up to a million characters and refuses longer ones with a
  // message (lib/portal/support.ts); Next's default 1 MB body limit would cut in first with an error
  // page. A million UTF-16 units are at most 3 MB of UTF-8. server.ts caps every body before Next by
  // lib/http/body-caps.ts (4 MiB for that page, 64 KiB for most).
  experimental: { serverActions: { bodySizeLimit: '4mb' } },
};

export default nextConfig;
