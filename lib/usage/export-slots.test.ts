/**
 * The export limits in-process: one account's exports beyond its limit and everyone's beyond the
 * server's wait in line, start in arrival order as places free up, and are refused, naming the limit
 * that held them, when their wait runs out. (test/system/export-limits.test.ts checks the same limits
 * through the production server.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ExportAdmission, type ExportSlot, ExportSlots } from './export-slots.ts';

/** Long enough never to run out during a test: a wait that ends here ends because a place freed up. */
const NO_TIMEOUT = 600_000;

/** Whether the admission has settled after the event loop has run everything it had to do. */
async function settled(admission: Promise<ExportAdmission>): Promise<boolean> {
  let done = false;
  void admission.then(() => {
    done = true;
  });
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

async function slot(admission: Promise<ExportAdmission>): Promise<ExportSlot> {
  const result = await admission;
  assert.ok('slot' in result, `admitted, got ${JSON.stringify(result)}`);
  return result.slot;
}

test("an account's second export waits for its first while another account's starts at once", async () => {
  const slots = new ExportSlots({ perAccount: 1, perServer: 3, waitMs: NO_TIMEOUT });
  const first = await slot(slots.acquire('ada'));
  const second = slots.acquire('ada');
  assert.equal(await settled(second), false, "ada's second export waits");
  const bob = await slot(slots.acquire('bob'));
  assert.deepEqual([slots.usage(), slots.usage('ada'), slots.usage('bob')], [2, 1, 1]);
  first.release();
  const next = await slot(second);
  assert.deepEqual([slots.usage(), slots.usage('ada')], [2, 1], "ada's second runs in her first's place");
  next.release();
  bob.release();
  assert.equal(slots.usage(), 0);
});

test('beyond the server limit exports wait whoever asks, and start in the order they asked as places free up', async () => {
  const slots = new ExportSlots({ perAccount: 1, perServer: 2, waitMs: NO_TIMEOUT });
  const ada = await slot(slots.acquire('ada'));
  const bob = await slot(slots.acquire('bob'));
  const cleo = slots.acquire('cleo');
  const dan = slots.acquire('dan');
  assert.equal(await settled(cleo), false);
  assert.equal(await settled(dan), false);
  ada.release();
  const cleoSlot = await slot(cleo);
  assert.equal(await settled(dan), false, 'one place freed, the first in line took it');
  bob.release();
  (await slot(dan)).release();
  cleoSlot.release();
  assert.equal(slots.usage(), 0);
});

test('a waiter held by its own account does not hold up a later one that fits', async () => {
  const slots = new ExportSlots({ perAccount: 1, perServer: 2, waitMs: NO_TIMEOUT });
  const ada = await slot(slots.acquire('ada'));
  const bob = await slot(slots.acquire('bob'));
  const adaAgain = slots.acquire('ada');
  const cleo = slots.acquire('cleo');
  bob.release();
  (await slot(cleo)).release();
  assert.equal(await settled(adaAgain), false, "ada's second still waits for her first");
  ada.release();
  (await slot(adaAgain)).release();
});

test('when the wait runs out the export is refused, naming the limit that held it', async () => {
  const slots = new ExportSlots({ perAccount: 1, perServer: 2, waitMs: 0 });
  const ada = await slot(slots.acquire('ada'));
  assert.deepEqual(await slots.acquire('ada'), { refused: 'account' });
  const bob = await slot(slots.acquire('bob'));
  assert.deepEqual(await slots.acquire('cleo'), { refused: 'server' });
  assert.deepEqual(await slots.acquire('ada'), { refused: 'account' }, 'both limits reached: her own is named');
  assert.deepEqual([slots.usage(), slots.usage('ada'), slots.usage('cleo')], [2, 1, 0], 'a refusal holds no place');
  ada.release();
  bob.release();
});

test('releasing twice frees one place, not two', async () => {
  const slots = new ExportSlots({ perAccount: 2, perServer: 2, waitMs: 0 });
  const ada = await slot(slots.acquire('ada'));
  const bob = await slot(slots.acquire('bob'));
  ada.release();
  ada.release();
  assert.deepEqual([slots.usage(), slots.usage('ada')], [1, 0]);
  const cleo = await slot(slots.acquire('cleo'));
  assert.deepEqual(await slots.acquire('dan'), { refused: 'server' });
  bob.release();
  cleo.release();
});
