/**
 * Keys a limit refuses, made on a started server through its CLI: one whose daily quota is used up (a
 * quota of 1, spent by one call) and one whose per-second rate admits 1 call, so a flood meets both 429s.
 */
import assert from 'node:assert/strict';
import { bearer, postMcp, toolCall } from '../../test/support/mcp-client.ts';
import type { TestServer } from '../../test/support/test-server.ts';

export async function refusedKeys(server: TestServer): Promise<{ id: string; secret: string }[]> {
  const create = (...limits: string[]) => {
    const key = server.cliJson('key', 'create', '--owner', server.adminEmail, '--tier', 'free', ...limits);
    return { id: key.id, secret: key.key };
  };
  const usedUp = create('--daily-quota', '1', '--rps', '1000');
  const spent = await postMcp(
    server.mcpUrl,
    toolCall('service_query_compound', { compound_name: 'water' }),
    bearer(usedUp.secret),
  );
  assert.equal(spent.status, 200, spent.text);
  return [usedUp, create('--daily-quota', '100000000', '--rps', '1')];
}
