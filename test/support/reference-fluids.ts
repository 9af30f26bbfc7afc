/**
 * Runs code as on a machine without the reference equations of state (the steering folder's
 * shared/data/coolprop absent): what a fresh clone outside the workplace serves. Synchronous only, so
 * nothing else in the process sees the switch.
 */
import { join } from 'node:path';
import { setReferenceFluidDir } from '../../lib/chem/helmholtz/fluids.ts';

export function withoutReferenceEquations<T>(run: () => T): T {
  setReferenceFluidDir(join(import.meta.dirname, 'no-reference-fluids-here'));
  try {
    return run();
  } finally {
    setReferenceFluidDir(undefined);
  }
}
