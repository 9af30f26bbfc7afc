/** The operator command line: `npm run --silent cli -- <command>` (the commands are in run.ts). */
import { run } from './run.ts';

process.exitCode = await run(process.argv.slice(2));
