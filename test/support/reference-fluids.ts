/**
 * Runs code with the reference-equation layer pointed at an empty folder, so that the tools' fallbacks
 * (cubic equations, correlations) answer for fluids that have a reference equation. Synchronous only,
 * so nothing else in the process sees the switch.
 */
import { join } from 'node:path';
import { setReferenceFluidDirForTests } from '../../lib/chem/helmholtz/fluids.ts';

export function withoutReferenceEquations<T>(run: () => T): T {
  setReferenceFluidDirForTests(join(import.meta.dirname, 'no-reference-fluids-here'));
  try {
    return run();
  } finally {
    setReferenceFluidDirForTests(undefined);
  }
}
