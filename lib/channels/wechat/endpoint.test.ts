// test-isolation: process
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setEnvForTest } from '../../../test/support/env.ts';
import { wechatGet, wechatPost } from './endpoint.ts';

test('without WECHAT_TOKEN the endpoint answers 404, as for a path the server does not have', async (t) => {
  // Before anything reads the configuration, which is read once per process.
  setEnvForTest(t, 'WECHAT_TOKEN', undefined);
  const get = await wechatGet(
    new Request('http://localhost/api/channels/wechat?echostr=1&signature=x&timestamp=1&nonce=1'),
    null as never,
  );
  assert.equal(get.status, 404);
  assert.equal(await get.text(), 'Not Found');
  // A closed door reads neither the request's body nor the database.
  const post = await wechatPost(
    new Request('http://localhost/api/channels/wechat', { method: 'POST', body: '<xml/>' }),
    null as never,
  );
  assert.equal(post.status, 404);
});
