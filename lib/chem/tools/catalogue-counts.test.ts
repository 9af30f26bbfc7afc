/**
 * The catalogue describes what is loaded: every count of fluids or compounds a tool's text states is the
 * number the shipped data layers hold, stated exactly (no "about"), so that a data update that changes a
 * count fails here until the texts say the new one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundledChemSepCompounds } from '../../compounds/bundled-chemsep.ts';
import { referenceFluids } from '../helmholtz/fluids.ts';
import { nameTable } from '../name-table.ts';
import { chemTools } from './index.ts';

/** Every text an agent reads about a tool: description, details and argument descriptions. */
function texts(): { tool: string; text: string }[] {
  return chemTools.flatMap((tool) => {
    const args = Object.values((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>);
    return [tool.description, ...(tool.details ?? []), ...args.map((a) => a.description ?? '')].map((text) => ({
      tool: tool.name,
      text,
    }));
  });
}

const number = (digits: string) => Number(digits.replace(/,/g, ''));

/** Each stated count: the pattern that finds it and the number loaded. */
const CLAIMS = [
  {
    what: 'reference equations of state',
    pattern: /(\d[\d,]*) fluids/g,
    loaded: () => referenceFluids().fluids.length,
  },
  {
    what: "ChemSep's compounds beyond the catalogue",
    pattern: /(\d[\d,]*) compounds ChemSep 8\.32 lists beyond the catalogue/g,
    loaded: () => bundledChemSepCompounds().length,
  },
  {
    what: 'the PubChem name table',
    pattern: /PubChem[\w -]* name table (?:of |\()(\d[\d,]*) compounds/g,
    loaded: () => nameTable()?.entries.length ?? 0,
  },
];

for (const claim of CLAIMS) {
  test(`every count of ${claim.what} in the tool texts is the number loaded`, () => {
    const loaded = claim.loaded();
    const stated = texts().flatMap(({ tool, text }) =>
      [...text.matchAll(claim.pattern)].map((m) => ({ tool, count: number(m[1]) })),
    );
    assert.ok(stated.length > 0, `no tool states how many ${claim.what} it has`);
    assert.deepEqual(
      stated.filter((s) => s.count !== loaded),
      [],
      `loaded: ${loaded}`,
    );
  });
}

test('no tool text gives a count of fluids or compounds as "about"', () => {
  const loose = texts().filter(({ text }) => /about [\d,]+ (other )?(fluids|compounds)/.test(text));
  assert.deepEqual(
    loose.map((l) => l.tool),
    [],
  );
});
