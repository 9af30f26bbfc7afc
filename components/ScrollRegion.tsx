/**
 * A wide table's box: on a narrow screen it scrolls sideways inside the page. It is a labelled region
 * that takes keyboard focus, so people without a mouse can scroll it with the arrow keys (axe's
 * "scrollable-region-focusable"), and shadows at its edges show that more columns are hidden.
 */
import type { ReactNode } from 'react';
import './scroll-region.css';

export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // A named <section> is a region landmark.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled by keyboard.
    <section className="table-wrap scroll-region" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
