/**
 * Runs code with the data layers read from a scratch folder that holds every shipped layer but the
 * ones named, as CHEM_DATA_DIR pointing at such a folder does: water without CoolProp's files, for
 * one, answers from IAPWS-IF97. Synchronous only, so nothing else in the process sees the switch.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_LAYERS, type DataLayer, layerDir, setChemDataDir } from '../../lib/chem/third-party-data.ts';

export function withDataLayersBut<T>(left: readonly DataLayer[], run: () => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'chem-data-'));
  for (const layer of DATA_LAYERS) if (!left.includes(layer)) symlinkSync(layerDir(layer), join(dir, layer));
  setChemDataDir(dir);
  try {
    return run();
  } finally {
    setChemDataDir(undefined);
    rmSync(dir, { recursive: true });
  }
}
