/** GitHub sign-in is offered when both of its settings are present (read by Auth.js and by the CSP). */
export function githubConfigured(): boolean {
  return Boolean(process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET);
}
