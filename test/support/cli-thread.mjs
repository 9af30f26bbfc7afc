/**
 * The worker thread behind test/support/cli-in-process.ts: registers tsx (a worker does not inherit the
 * parent's loader), then loads the CLI. Plain JavaScript, since nothing can load TypeScript before this.
 */
import { register } from 'tsx/esm/api';

register();
await import('./cli-thread-commands.ts');
