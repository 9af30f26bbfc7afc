import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latexToText, readBibTeX } from './bibtex.ts';

const LIBRARY = String.raw`% Encoding: US-ASCII

@Article{Wagner-JPCRD-2002,
  Title                    = {{The IAPWS Formulation 1995 for the Thermodynamic Properties of Ordinary Water Substance}},
  Author                   = {W. Wagner and A. Pru{\ss}},
  Journal                  = {J. Phys. Chem. Ref. Data},
  Year                     = {2002},
  Pages                    = {387--535},
  Volume                   = {31},
  Doi                      = {10.1063/1.1461829}
}

@Book{Cengel2007,
  Title = "Thermodynamics, An Engineering Approach",
  Author = {Yunus A. \c{C}engel and Michael A. Boles and J. G{\"o}mez},
  Publisher = {McGraw-Hill},
  Year = 2007
}

@Comment{jabref-meta: databaseType:bibtex;}
`;

test('a BibTeX library becomes one citation line per key: authors, title, where, volume (year) pages, doi', () => {
  const citations = readBibTeX(LIBRARY);
  assert.deepEqual(Object.keys(citations), ['Wagner-JPCRD-2002', 'Cengel2007']);
  assert.equal(
    citations['Wagner-JPCRD-2002'],
    'W. Wagner and A. Pruß, The IAPWS Formulation 1995 for the Thermodynamic Properties of Ordinary Water Substance, J. Phys. Chem. Ref. Data 31 (2002) 387–535, doi:10.1063/1.1461829',
  );
  assert.equal(
    citations.Cengel2007,
    'Yunus A. Çengel, Michael A. Boles and J. Gömez, Thermodynamics, An Engineering Approach, McGraw-Hill (2007)',
  );
});

test('LaTeX accents and escapes become the letters they stand for', () => {
  assert.equal(latexToText(String.raw`Pru{\ss}`), 'Pruß');
  assert.equal(
    latexToText(String.raw`{\'E}cole, Ba\~nos, {\L}ukasz, R\&D, \v{C}apek`),
    'École, Baños, Łukasz, R&D, Čapek',
  );
});

test('an unbalanced entry is refused, not read past', () => {
  assert.throws(() => readBibTeX('@Article{Key, Title = {open'), /unbalanced braces/);
});
