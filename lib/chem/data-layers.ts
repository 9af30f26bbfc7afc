/**
 * What each shipped data layer holds once loaded: the start-up log prints it, and a test fails when a
 * layer is empty. Loading is each layer's own (first use parses its files); this only counts.
 */
import { chemsepLayer } from './chemsep-layer.ts';
import { referenceFluids } from './helmholtz/fluids.ts';
import { mixtureNames } from './mixture-names.ts';
import { nameTable } from './name-table.ts';
import { allNasaPolynomials } from './nasa7.ts';
import { type DataLayer, layerDir } from './third-party-data.ts';

interface LayerSummary {
  layer: DataLayer;
  dir: string;
  /** How many usable records the layer gave, and what they are. */
  count: number;
  holds: string;
}

/** Loads every layer (about two seconds in all) and says how much each holds. */
export function dataLayerSummary(): LayerSummary[] {
  const table = nameTable();
  const { fluids, skipped } = referenceFluids();
  return [
    {
      layer: 'coolprop',
      dir: layerDir('coolprop'),
      count: fluids.length,
      holds: `reference equations of state for catalogue compounds${skipped.length ? ` (${skipped.length} fluid files unusable)` : ''}`,
    },
    {
      layer: 'nasa',
      dir: layerDir('nasa'),
      count: allNasaPolynomials().length,
      holds: 'NASA-7 fits matched to catalogue compounds',
    },
    {
      layer: 'chemsep',
      dir: layerDir('chemsep'),
      count: chemsepLayer().size,
      holds: 'ChemSep compounds with correlations',
    },
    {
      layer: 'pubchem-names',
      dir: layerDir('pubchem-names'),
      count: table?.entries.length ?? 0,
      holds: `compounds in the name → structure table, and ${mixtureNames().size} mixture names`,
    },
  ];
}

/** One line for the start-up log. */
export function formatLayerSummary(summary: readonly LayerSummary[]): string {
  return `Data layers: ${summary.map((s) => `${s.layer} ${s.count} ${s.holds}`).join('; ')}.`;
}
