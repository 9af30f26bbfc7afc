/**
 * Key changes from the support console, through the portal's own server actions over HTTP (the calls
 * the /support/keys/<id> page's forms make): every few seconds the support user opens the next key of
 * a small pool and disables it, re-enables it, reissues it, or raises its limits. The load generator is
 * told when each change starts and ends, so it expects 401 for a disabled key and uses the new secret
 * after a reissue.
 */
import type { KeySlot } from './mcp-load.ts';
import { describeError, type Observations } from './observations.ts';
import { type PortalSession, serverActionId } from './portal-client.ts';

const KIND = 'support action';
const ACTIONS_FILE = 'app/support/keys/[id]/actions.ts';

/** The action's return value from React's flight answer: row 0 names the row ("$@1") that holds it. */
export function actionResult(flight: string): unknown {
  const rows = new Map(
    flight
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon), line.slice(colon + 1)] as const;
      }),
  );
  const head = JSON.parse(rows.get('0') ?? 'null') as { a?: unknown } | null;
  const ref = typeof head?.a === 'string' && head.a.startsWith('$@') ? head.a.slice(2) : undefined;
  if (ref === undefined) return head?.a;
  const row = rows.get(ref);
  return row === undefined ? undefined : JSON.parse(row);
}

/** Whether an action's return value says it succeeded; a reissue's also carries the new key. */
function succeeded(result: unknown): result is { ok: true; id?: string; secret?: string } {
  return typeof result === 'object' && result !== null && 'ok' in result && result.ok === true;
}

type Operation = 'disable' | 'enable' | 'reissue' | 'settings';
/** What a live pool key gets when visited, in turn; a disabled one is re-enabled at its next visit. */
const CYCLE: Operation[] = ['disable', 'reissue', 'settings'];
const MAX_RATE_PER_SECOND = 3;

export class SupportConsole {
  private readonly ids = {
    switch: serverActionId(ACTIONS_FILE, 'switchKeyAction'),
    reissue: serverActionId(ACTIONS_FILE, 'reissueKeyAction'),
    settings: serverActionId(ACTIONS_FILE, 'changeSettingsAction'),
  };
  private visits = 0;
  private readonly liveVisits = new Map<KeySlot, number>();
  readonly done: Record<Operation, number> = { disable: 0, enable: 0, reissue: 0, settings: 0 };

  constructor(
    private readonly session: PortalSession,
    private readonly pool: KeySlot[],
    private readonly observations: Observations,
  ) {}

  /**
   * The next change: the pool's keys in turn. A live key gets the next operation of CYCLE, starting at
   * a different one for each key, so every kind of change happens within the first few visits.
   */
  async changeNext(): Promise<void> {
    const index = this.visits % this.pool.length;
    const slot = this.pool[index];
    const live = this.liveVisits.get(slot) ?? 0;
    if (!slot.disabled) this.liveVisits.set(slot, live + 1);
    const operation: Operation = slot.disabled ? 'enable' : CYCLE[(live + index) % CYCLE.length];
    this.visits++;
    const path = `/support/keys/${slot.keyId}`;
    const change = slot.beginChange();
    try {
      const answer = await this.call(operation, slot, path);
      if (answer.status !== 200)
        return this.observations.fail(
          KIND,
          `${answer.status}`,
          `${KIND} ${operation}`,
          `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`,
        );
      const result = actionResult(answer.text);
      if (!succeeded(result))
        return this.observations.fail(
          KIND,
          '200 refused',
          `${KIND} ${operation}`,
          `${slot.plan.label}: ${JSON.stringify(result)?.slice(0, 300)}`,
        );
      this.apply(operation, slot, result);
      this.done[operation]++;
      this.observations.count(KIND, `200 ${operation}`);
    } catch (error) {
      this.observations.fail(KIND, 'no answer', `${KIND} ${operation}`, describeError(error));
    } finally {
      slot.endChange(change);
    }
  }

  private call(operation: Operation, slot: KeySlot, path: string) {
    const keyId = slot.keyId;
    switch (operation) {
      case 'disable':
        return this.session.callAction(path, this.ids.switch, { keyId, turn: 'off', reason: 'soak: disable' });
      case 'enable':
        return this.session.callAction(path, this.ids.switch, { keyId, turn: 'on', reason: 'soak: re-enable' });
      case 'reissue':
        return this.session.callAction(path, this.ids.reissue, { keyId });
      case 'settings': {
        const { rate, quota } = this.raisedLimits(slot);
        return this.session.callAction(path, this.ids.settings, {
          keyId,
          tierId: 'free',
          dailyQuota: String(quota),
          ratePerSecond: String(rate),
          expiresOn: '',
          reason: 'soak: raise limits',
        });
      }
    }
  }

  /** One more call per second (up to 3) and 50 more calls per day. */
  private raisedLimits(slot: KeySlot) {
    return { rate: Math.min(slot.ratePerSecond + 1, MAX_RATE_PER_SECOND), quota: slot.tally().quotas.at(-1)! + 50 };
  }

  /** Tells the load generator what changed, once the change is saved. */
  private apply(operation: Operation, slot: KeySlot, result: { id?: string; secret?: string }) {
    if (operation === 'disable') slot.disabled = true;
    if (operation === 'enable') slot.disabled = false;
    if (operation === 'reissue') slot.reissued(result.id!, result.secret!);
    if (operation === 'settings') {
      const { rate, quota } = this.raisedLimits(slot);
      slot.settingsChanged(rate, quota);
    }
  }
}
