import { config } from '../config.ts';

/** GitHub sign-in is offered when both of its settings are present (read by Auth.js and by the CSP). */
export function githubConfigured(): boolean {
  return config().github !== undefined;
}
