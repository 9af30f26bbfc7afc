import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MENU_KEYS, MENU_LIMITS, wechatMenu } from './menu.ts';

for (const language of ['zh', 'en'] as const) {
  test(`the ${language} menu: three click buttons within the platform's byte limits`, () => {
    const menu = wechatMenu(language);
    assert.equal(menu.button.length, MENU_LIMITS.buttons);
    assert.deepEqual(
      menu.button.map((b) => b.key),
      [MENU_KEYS.keyUsage, MENU_KEYS.upgrade, MENU_KEYS.contact],
    );
    for (const button of menu.button) {
      assert.equal(button.type, 'click');
      assert.ok(button.name.length > 0);
      assert.ok(Buffer.byteLength(button.name, 'utf8') <= MENU_LIMITS.nameBytes, `${button.name} is over 16 bytes`);
      assert.ok(Buffer.byteLength(button.key, 'utf8') <= MENU_LIMITS.keyBytes);
    }
  });
}

test('the names are the agreed ones in each language', () => {
  assert.deepEqual(
    wechatMenu('zh').button.map((b) => b.name),
    ['密钥与用量', '购买专业版', '联系客服'],
  );
  assert.deepEqual(
    wechatMenu('en').button.map((b) => b.name),
    ['My key & usage', 'Buy Pro', 'Contact'],
  );
});
