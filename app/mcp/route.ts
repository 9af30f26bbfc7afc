/**
 * The MCP endpoint as a Next.js route handler: the same handler server.ts serves on its fast path, for
 * `next dev` and hosts that run Next without server.ts.
 */
import { handleMcpRequest } from '@/lib/mcp/http.ts';

export const dynamic = 'force-dynamic';

export const POST = handleMcpRequest;
export const GET = handleMcpRequest;
export const DELETE = handleMcpRequest;
export const OPTIONS = handleMcpRequest;
export const PUT = handleMcpRequest;
export const PATCH = handleMcpRequest;
