// Prints one closing line for the whole run, "N passed, N failed, N skipped", from the jest and
// Playwright JSON reports, and exits non-zero when a test or any stage (lint, typecheck, build...)
// failed. Skipped and todo tests are counted apart: a test that did not run is not a pass.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...failedStages] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const read = (name) => (existsSync(join(dir, name)) ? JSON.parse(readFileSync(join(dir, name), 'utf8')) : null);

for (const name of ['jest-sqlite.json', 'jest-postgres.json']) {
  const r = read(name);
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  }
}
const e2e = read('e2e.json');
if (e2e) {
  passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
  failed += e2e.stats.unexpected;
  skipped += e2e.stats.skipped ?? 0;
}
if (failedStages.length) console.log(`failed stages: ${failedStages.join(', ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || failedStages.length > 0 || passed === 0 ? 1 : 0);
