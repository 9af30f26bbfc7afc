/**
 * service_search_compounds: the compounds a query could mean, best first, each with its identifiers
 * and why it matched. Where service_query_compound answers one compound or an error, this lists
 * candidates: exact identifiers first (name, synonym, CAS, InChIKey, formula, SMILES of the same
 * structure), then names that start with the query, names that contain it, and names spelled
 * similarly (edit distance). Built on the lookup index (../lookup.ts).
 */
import type { Compound } from '../compounds.ts';
import { editDistance } from '../edit-distance.ts';
import { hillFormula, parseFormula } from '../formula.ts';
import {
  type CompoundIndex,
  defaultIndex,
  findByStructure,
  MAX_QUERY_LENGTH,
  mixtureRefusal,
  normalizeKey,
  prepareCompoundIndex,
} from '../lookup.ts';
import { defineTool, type JsonSchema, ToolError } from '../tool.ts';
import { answerSchema, objectOf, STRING } from './answer-schema.ts';

interface SearchCompoundsArgs {
  query: string;
  limit?: number;
}

/** Why a compound matched, best reason first: the order of this list is the ranking. */
const REASONS = [
  'name',
  'synonym',
  'cas',
  'inchikey',
  'formula',
  'smiles',
  'prefix',
  'substring',
  'similar_spelling',
] as const;
type MatchReason = (typeof REASONS)[number];

interface SearchMatch {
  reason: MatchReason;
  /** The compound's text that matched: a name, synonym, CAS number, InChIKey, formula or SMILES. */
  matched: string;
  /** Edit distance between the query and `matched` (similar_spelling only), after normalisation. */
  distance?: number;
}

interface SearchHit {
  rank: number;
  name: string;
  cas: string;
  formula: string;
  smiles: string;
  inchikey?: string;
  match: SearchMatch;
}

interface SearchCompoundsResult {
  query: string;
  total_matches: number;
  results: SearchHit[];
  message?: string;
}

const DEFAULT_SEARCH_LIMIT = 10;
const MAX_SEARCH_LIMIT = 50;

const REASON_TEXT: Record<MatchReason, string> = {
  name: 'the exact name (ignoring case, spaces, hyphens and primes)',
  synonym: 'an exact synonym (IUPAC, common, trade, abbreviation or Chinese name)',
  cas: 'the CAS number',
  inchikey: 'the InChIKey',
  formula: 'the molecular formula',
  smiles: 'a SMILES of the same structure',
  prefix: 'a name or synonym that starts with the query',
  substring: 'a name or synonym that contains the query',
  similar_spelling: 'a name or synonym spelled similarly (distance = edits: insert, delete, substitute, swap)',
};

const outputSchema = answerSchema(
  {
    query: STRING,
    total_matches: { type: 'integer' },
    results: {
      type: 'array',
      items: objectOf({
        rank: { type: 'integer' },
        name: STRING,
        cas: STRING,
        formula: STRING,
        smiles: STRING,
        inchikey: STRING,
        match: objectOf({ reason: { enum: [...REASONS] }, matched: STRING, distance: { type: 'integer' } }),
      }),
    },
    message: STRING,
  },
  ['message'],
);

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_search_compoundsArguments',
  properties: {
    query: {
      type: 'string',
      title: 'Query',
      minLength: 1,
      maxLength: MAX_QUERY_LENGTH,
      description: 'Name or part of one ("chloro"), synonym, CAS, InChIKey, formula ("C4H10": all isomers) or SMILES.',
    },
    limit: {
      type: 'integer',
      title: 'Limit',
      minimum: 1,
      maximum: MAX_SEARCH_LIMIT,
      default: DEFAULT_SEARCH_LIMIT,
      description: `1–${MAX_SEARCH_LIMIT}, default ${DEFAULT_SEARCH_LIMIT}.`,
    },
  },
  required: ['query'],
  additionalProperties: false,
};

interface Candidate {
  compound: Compound;
  match: SearchMatch;
  /** Within a reason: lower is better (name before synonym, closer length, smaller distance). */
  order: number;
}

/** Names and synonyms of every compound, normalised once per index. */
const namesByIndex = new WeakMap<CompoundIndex, { key: string; text: string; isName: boolean; compound: Compound }[]>();

function names(index: CompoundIndex) {
  let list = namesByIndex.get(index);
  if (!list) {
    list = [...index.bySmiles.values()].flatMap((compound) => [
      { key: normalizeKey(compound.name), text: compound.name, isName: true, compound },
      ...compound.synonyms.map((text) => ({ key: normalizeKey(text), text, isName: false, compound })),
    ]);
    namesByIndex.set(index, list);
  }
  return list;
}

/**
 * Ranked matches for `query` in `index` (all of them; the caller applies a limit). Structure matches
 * need RDKit loaded (prepareCompoundIndex); without it a SMILES matches only as stored.
 */
function searchCompounds(
  query: string,
  index: CompoundIndex = defaultIndex(),
): { compound: Compound; match: SearchMatch }[] {
  const text = query.trim().replace(/^inchikey=/i, '');
  if (text === '')
    throw new ToolError(
      'invalid_arguments',
      'query is empty: give a name or part of one, a synonym, CAS number, formula, SMILES or InChIKey.',
    );
  const key = normalizeKey(text);
  const length = Array.from(key).length;
  const best = new Map<Compound, Candidate>();
  const offer = (compound: Compound, match: SearchMatch, order = 0) => {
    const current = best.get(compound);
    const better =
      !current ||
      REASONS.indexOf(match.reason) < REASONS.indexOf(current.match.reason) ||
      (match.reason === current.match.reason && order < current.order);
    if (better) best.set(compound, { compound, match, order });
  };

  const exact = index.byKey.get(key);
  if (exact) {
    const { compound, by } = exact;
    const matched =
      by === 'cas'
        ? compound.cas
        : by === 'inchikey'
          ? compound.inchikey!
          : [compound.name, ...compound.synonyms].find((s) => normalizeKey(s) === key)!;
    offer(compound, { reason: by as MatchReason, matched });
  }
  const counts = parseFormula(text.replace(/\s+/g, ''));
  for (const compound of (counts && index.byFormula.get(hillFormula(counts))) || [])
    offer(compound, { reason: 'formula', matched: compound.formula });
  const stored = index.bySmiles.get(text);
  if (stored) offer(stored, { reason: 'smiles', matched: stored.smiles });
  for (const compound of findByStructure(text, index)) offer(compound, { reason: 'smiles', matched: compound.smiles });

  const maxDistance = Math.max(1, Math.floor(length / 3));
  // Two Latin letters are inside too many names ("co" in "ethyl alcohol"); two Chinese characters are a word.
  const substringMinimum = /\p{Script=Han}/u.test(key) ? 2 : 3;
  for (const term of names(index)) {
    if (term.key === key) continue; // an exact name or synonym, offered above
    const tieBreak = (term.isName ? 0 : 0.5) + Array.from(term.key).length / 1000;
    if (term.key.startsWith(key)) {
      offer(term.compound, { reason: 'prefix', matched: term.text }, tieBreak);
    } else if (length >= substringMinimum && term.key.includes(key)) {
      offer(term.compound, { reason: 'substring', matched: term.text }, tieBreak);
    } else if (length >= 3) {
      const distance = editDistance(key, term.key, maxDistance);
      if (distance <= maxDistance)
        offer(term.compound, { reason: 'similar_spelling', matched: term.text, distance }, distance + tieBreak / 10);
    }
  }

  return [...best.values()]
    .sort(
      (a, b) =>
        REASONS.indexOf(a.match.reason) - REASONS.indexOf(b.match.reason) ||
        a.order - b.order ||
        a.compound.name.localeCompare(b.compound.name),
    )
    .map(({ compound, match }) => ({ compound, match }));
}

async function runSearchCompounds({
  query,
  limit = DEFAULT_SEARCH_LIMIT,
}: SearchCompoundsArgs): Promise<SearchCompoundsResult> {
  const index = await prepareCompoundIndex();
  const all = searchCompounds(query, index);
  const results = all.slice(0, limit).map(({ compound, match }, i) => ({
    rank: i + 1,
    name: compound.name,
    cas: compound.cas,
    formula: compound.formula,
    smiles: compound.smiles,
    ...(compound.inchikey ? { inchikey: compound.inchikey } : {}),
    match,
  }));
  // A mixture's name ("air", "natural gas") matches no compound: say what it is and what to use instead.
  const message =
    all.length === 0
      ? (mixtureRefusal(query.trim())?.message ??
        `No compound matches "${query.trim()}" by name, synonym, CAS number, InChIKey, formula, SMILES, or similar spelling.`)
      : all.length > limit
        ? `Showing ${limit} of ${all.length} matches; raise limit (up to ${MAX_SEARCH_LIMIT}) or refine the query to see the rest.`
        : undefined;
  return { query, total_matches: all.length, results, ...(message ? { message } : {}) };
}

export const searchCompoundsTool = defineTool<SearchCompoundsArgs, Promise<SearchCompoundsResult>>({
  name: 'service_search_compounds',
  title: 'Search compounds',
  description: [
    'List the compounds a query could mean, best first, with identifiers and why each matched: exact name, synonym, CAS, InChIKey, formula (all isomers) or same structure, then names starting with, containing or spelled like the query.',
    'No match is an empty list with a message. Use service_query_compound with a listed name for properties.',
  ].join(' '),
  details: [
    `query is a name or part of one, synonym, Simplified Chinese name, CAS number, InChIKey, molecular formula or SMILES; case, spaces, hyphens and primes are ignored in names. limit is 1–${MAX_SEARCH_LIMIT}, default ${DEFAULT_SEARCH_LIMIT}.`,
    'Ranking: exact matches first (name, synonym, CAS, InChIKey, formula, which lists every isomer, and SMILES of the same structure, compared by RDKit canonical SMILES), then names and synonyms starting with the query, then containing it, then spelled similarly (edit distance at most a third of the query length).',
    `Returns query, total_matches (before the limit) and results [{rank, name, cas, formula, smiles, inchikey, match: {reason, matched, distance}}]. Reasons: ${REASONS.map((r) => `${r}: ${REASON_TEXT[r]}`).join('; ')}.`,
    'No match is an empty result with a message, not an error; for a mixture\'s name ("air", "natural gas", "R-410A", "gasoline") the message says so and gives the composition on record for service_mixture_properties, as the is_mixture error of the other tools does.',
  ],
  inputSchema,
  outputSchema,
  example: { query: 'butane', limit: 3 },
  run: runSearchCompounds,
});
