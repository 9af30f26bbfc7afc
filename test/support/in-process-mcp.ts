/**
 * /mcp served inside the test's own process: a node:http server in front of the real handler, adapted
 * exactly as server.ts adapts it (lib/mcp/node-request.ts). For suites that change what the handler
 * reads (the live tool registry, a setting read once), where a separate server process could not see it.
 * The handler is imported when first served, so a suite can set the environment before that.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Serves /mcp on a free loopback port: its URL, and how to stop serving. */
export async function serveMcpInProcess(): Promise<{ url: string; close: () => Promise<void> }> {
  const { createMcpHandler } = await import('../../lib/mcp/handler.ts');
  const { getMcpService } = await import('../../lib/mcp/service.ts');
  const { nodeMcpRequest, writeMcpAnswer } = await import('../../lib/mcp/node-request.ts');
  // Built on the first request, as late as the suite's environment allows.
  let handleMcpRequest: ReturnType<typeof createMcpHandler> | undefined;
  let origin = '';
  const server = createServer((req, res) => {
    const address = req.socket.remoteAddress ?? '127.0.0.1';
    handleMcpRequest ??= createMcpHandler(getMcpService());
    handleMcpRequest(nodeMcpRequest(req, origin, address)).then(
      (answer) => writeMcpAnswer(req, res, answer),
      (error) => res.destroy(error),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((closed) => {
      server.close(() => closed());
      server.closeAllConnections();
    });
  return { url: `${origin}/mcp`, close };
}
