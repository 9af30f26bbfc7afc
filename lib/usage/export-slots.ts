/**
 * How many call-log exports run at once: at most `perAccount` for one account and `perServer` in this
 * process. An export reads the database for seconds; unbounded, a few of them at once starve everything
 * else the process serves. A request beyond a limit waits in line (first come, first served) for up to
 * `waitMs`, which covers a double click or a short export ahead of it, and is then refused, saying which
 * limit held it: the account's own exports (the person can wait for their download) or the server's.
 */
interface ExportLimits {
  perAccount: number;
  perServer: number;
  waitMs: number;
}

/** A running export's place; release() is idempotent, so every way an export ends may call it. */
export interface ExportSlot {
  release(): void;
}

export type ExportAdmission = { slot: ExportSlot } | { refused: 'account' | 'server' };

interface Waiter {
  account: string;
  grant: (slot: ExportSlot) => void;
}

export class ExportSlots {
  private running = 0;
  private readonly byAccount = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(readonly limits: ExportLimits) {}

  /** Resolves with a slot once the account and the server have room, or with the limit that held it after waitMs. */
  acquire(account: string): Promise<ExportAdmission> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        account,
        grant: (slot) => {
          clearTimeout(timer);
          resolve({ slot });
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        resolve({ refused: this.accountFull(account) ? 'account' : 'server' });
      }, this.limits.waitMs);
      this.waiting.push(waiter);
      this.admitWaiting();
    });
  }

  /** Exports running now, in all and for one account. */
  usage(account?: string): number {
    return account === undefined ? this.running : (this.byAccount.get(account) ?? 0);
  }

  private accountFull(account: string): boolean {
    return (this.byAccount.get(account) ?? 0) >= this.limits.perAccount;
  }

  /** Starts every waiter that fits, oldest first: one held by its own account does not hold up others. */
  private admitWaiting(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.limits.perServer; ) {
      const waiter = this.waiting[i];
      if (this.accountFull(waiter.account)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      waiter.grant(this.start(waiter.account));
    }
  }

  private start(account: string): ExportSlot {
    this.running++;
    this.byAccount.set(account, (this.byAccount.get(account) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        const left = (this.byAccount.get(account) ?? 1) - 1;
        if (left > 0) this.byAccount.set(account, left);
        else this.byAccount.delete(account);
        this.admitWaiting();
      },
    };
  }
}
