/**
 * The MCP endpoint as a Next.js route handler: the same handler server.ts serves on its fast path, for
 * `next dev` and hosts that run Next without server.ts.
 */
import { handleWebMcpRequest } from '@/lib/mcp/web.ts';

export const dynamic = 'force-dynamic';

// Wrapped: Next passes a second argument (the route context), which is not a buffered body.
const handle = (request: Request) => handleWebMcpRequest(request);

export const POST = handle;
export const GET = handle;
export const DELETE = handle;
export const OPTIONS = handle;
export const PUT = handle;
export const PATCH = handle;
