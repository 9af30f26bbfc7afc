/**
 * /mcp served inside the test's own process: a node:http server in front of the real handler, adapted
 * exactly as server.ts adapts it (lib/mcp/node-request.ts), on services built before it listens, as
 * server.ts builds them (on DATABASE_URL's database, which must be migrated). For suites that change
 * what the handler reads (the live tool registry, a setting read once), where a separate server process
 * could not see it. The handler is imported when first served, so a suite can set the environment before
 * that; closing also closes the services, so the next suite builds its own.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Serves /mcp on a free loopback port: its URL, and how to stop serving. */
export async function serveMcpInProcess(): Promise<{ url: string; close: () => Promise<void> }> {
  const { createMcpHandler } = await import('../../lib/mcp/handler.ts');
  const { closeMcpService, getMcpService } = await import('../../lib/mcp/service.ts');
  const { nodeMcpRequest, writeMcpAnswer } = await import('../../lib/mcp/node-request.ts');
  const handleMcpRequest = createMcpHandler(getMcpService());
  let origin = '';
  const server = createServer((req, res) => {
    const address = req.socket.remoteAddress ?? '127.0.0.1';
    handleMcpRequest(nodeMcpRequest(req, origin, address)).then(
      (answer) => writeMcpAnswer(req, res, answer),
      (error) => res.destroy(error),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    await new Promise<void>((closed) => {
      server.close(() => closed());
      server.closeAllConnections();
    });
    await closeMcpService();
  };
  return { url: `${origin}/mcp`, close };
}
