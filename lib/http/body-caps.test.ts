/** The cap table: exact paths, prefixes, the default for everything else, and the 413's message. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bodyCapFor, DEFAULT_BODY_CAP, sizeText, tooLargeMessage } from './body-caps.ts';

test('an exact entry matches its path only; a prefix entry every path below it; the rest gets the default', () => {
  assert.equal(bodyCapFor('/api/keys/report-leak').bytes, 64 * 1024);
  assert.equal(bodyCapFor('/api/keys/report-leak/x'), DEFAULT_BODY_CAP);
  assert.equal(bodyCapFor('/support/leaks').bytes, 4 * 1024 * 1024);
  assert.equal(bodyCapFor('/support/leaks/more'), DEFAULT_BODY_CAP);
  for (const path of ['/api/auth/callback/credentials', '/api/auth/signout', '/api/auth/anything/else'])
    assert.equal(bodyCapFor(path).bytes, 16 * 1024, path);
  assert.equal(bodyCapFor('/api/authx'), DEFAULT_BODY_CAP);
  for (const path of ['/', '/keys', '/no/such/path', '/authorize', '/.well-known/openid-configuration'])
    assert.equal(bodyCapFor(path), DEFAULT_BODY_CAP, path);
  for (const path of ['/register', '/token', '/revoke']) assert.equal(bodyCapFor(path).bytes, 16 * 1024, path);
});

test('the /mcp cap is MCP_MAX_BODY_BYTES (1 MiB by default)', () => {
  assert.equal(bodyCapFor('/mcp').bytes, Number(process.env.MCP_MAX_BODY_BYTES || 1024 * 1024));
  assert.equal(bodyCapFor('/mcp/x'), DEFAULT_BODY_CAP);
});

test('sizes read as people write them; the message names the limit and what to do, never the caller’s path', () => {
  assert.equal(sizeText(4 * 1024 * 1024), '4 MiB');
  assert.equal(sizeText(16 * 1024), '16 KiB');
  assert.equal(sizeText(1500), '1500 bytes');
  assert.match(
    tooLargeMessage(bodyCapFor('/api/auth/signout')),
    /^A request body under \/api\/auth\/ may be at most 16 KiB; .*password/,
  );
  assert.match(
    tooLargeMessage(bodyCapFor('/api/keys/report-leak')),
    /to \/api\/keys\/report-leak may be at most 64 KiB; .*Split/,
  );
  assert.match(tooLargeMessage(bodyCapFor('/cf_secret_path')), /^A request body here may be at most 64 KiB/);
});
