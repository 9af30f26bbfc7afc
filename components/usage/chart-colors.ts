/** Outcome colours for the charts: readable on the light and the dark theme alike (SVG fills cannot use the CSS variables). */
export const OUTCOME_COLORS = { successes: '#2da44e', failures: '#cf222e', rateLimited: '#bf8700' } as const;
