// The api is TypeScript: benchmarks that import its code run themselves again under its tsx.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, TSX } from './server.mjs';

/**
 * Under tsx: runs main(). Otherwise runs the script at `scriptUrl` (its import.meta.url) again
 * under tsx with the same arguments, and exits with its code.
 */
export async function runUnderTsx(scriptUrl, main) {
  if (process.env.QC_BENCH_UNDER_TSX) return main();
  const child = spawn(TSX, [fileURLToPath(scriptUrl), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, QC_BENCH_UNDER_TSX: '1' },
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** require() resolving from the api (its pg, kysely…: bench/ does not depend on them). */
export const apiRequire = createRequire(path.join(ROOT, 'api/package.json'));

/** The api's module api/src/<file> (only under tsx). */
export const importApi = (file) => import(path.join(ROOT, 'api/src', file));
