/**
 * Reads the references of a BibTeX library (CoolProp's CoolPropBibTeXLibrary.bib, which every fluid
 * file cites by key) into one-line citations: "Authors, Title, Journal Volume (Year) Pages, doi:…".
 * Only what a citation needs: entries of the form @Type{Key, Field = {value} | "value" | number, …},
 * braces nested, the usual LaTeX accents turned into letters. @Comment, @String and @Preamble are skipped.
 */

/** LaTeX accent command → Unicode combining mark. */
const ACCENTS: Record<string, string> = {
  '"': '\u0308',
  "'": '\u0301',
  '`': '\u0300',
  '^': '\u0302',
  '~': '\u0303',
  '=': '\u0304',
  '.': '\u0307',
  c: '\u0327',
  v: '\u030C',
  u: '\u0306',
  H: '\u030B',
};

/** LaTeX letters with no base letter to accent. */
const LETTERS: Record<string, string> = { L: 'Ł', l: 'ł', o: 'ø', O: 'Ø', ss: 'ß', aa: 'å', AA: 'Å', ae: 'æ', AE: 'Æ' };

/** A field's LaTeX as plain text: accents applied, braces and escapes removed, spaces collapsed. */
export function latexToText(latex: string): string {
  return latex
    .replace(
      /\\([a-zA-Z]+)\{\}|\\(L|l|o|O|ss|aa|AA|ae|AE)(?![a-zA-Z])/g,
      (m, a?: string, b?: string) => LETTERS[a ?? b ?? ''] ?? m,
    )
    .replace(/\\(["'`^~=.]|[cvuH](?=[\s{]))\s*\{?\s*([a-zA-Z])\}?/g, (_, accent: string, letter: string) =>
      (letter + ACCENTS[accent]).normalize('NFC'),
    )
    .replace(/\\([&%$#_])/g, '$1')
    .replace(/[{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of a braced value starting at text[open] === '{': its end index and its content. */
function braced(text: string, open: number): { end: number; value: string } {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return { end: i + 1, value: text.slice(open + 1, i) };
  }
  throw new Error(`unbalanced braces from offset ${open}`);
}

/** The fields of one entry's body (what follows "Key,"), lower-cased names → raw LaTeX values. */
function readFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const name = /\s*,?\s*([A-Za-z][\w-]*)\s*=\s*/y;
  let at = 0;
  for (;;) {
    name.lastIndex = at;
    const m = name.exec(body);
    if (!m) return fields;
    at = name.lastIndex;
    let value: string;
    if (body[at] === '{') ({ end: at, value } = braced(body, at));
    else if (body[at] === '"') {
      const close = body.indexOf('"', at + 1);
      value = body.slice(at + 1, close);
      at = close + 1;
    } else {
      const bare = /[^,\s}]+/y;
      bare.lastIndex = at;
      value = bare.exec(body)?.[0] ?? '';
      at = bare.lastIndex;
    }
    fields[m[1].toLowerCase()] = value;
  }
}

/** One citation line from an entry's fields. */
function citationOf(f: Record<string, string>): string {
  const text = (k: string) => (f[k] === undefined ? '' : latexToText(f[k]));
  const names = (text('author') || text('editor')).split(/\s+and\s+/).filter(Boolean);
  const authors = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  const where = text('journal') || text('booktitle') || text('publisher') || text('institution') || text('school');
  const volume = text('volume');
  const pages = text('pages').replace(/-+/g, '–');
  const doi = text('doi');
  const parts = [
    authors,
    text('title'),
    [where, volume, text('year') && `(${text('year')})`, pages].filter(Boolean).join(' '),
    doi && `doi:${doi}`,
  ];
  return parts.filter(Boolean).join(', ');
}

/** Every reference in a BibTeX library: key → citation line. */
export function readBibTeX(text: string): Record<string, string> {
  const citations: Record<string, string> = {};
  const entry = /@(\w+)\s*\{\s*([^,\s]+)\s*,/g;
  for (let m = entry.exec(text); m; m = entry.exec(text)) {
    const open = text.indexOf('{', m.index);
    const { end, value } = braced(text, open);
    entry.lastIndex = end;
    if (['comment', 'string', 'preamble'].includes(m[1].toLowerCase())) continue;
    citations[m[2]] = citationOf(readFields(value.slice(value.indexOf(',') + 1)));
  }
  return citations;
}
