// Prints one closing line for the whole run, "N passed, N failed, N skipped", from the jest and
// Playwright JSON reports, and exits non-zero when a test or any stage (lint, typecheck, build...)
// failed. Skipped and todo tests are counted apart: a test that did not run is not a pass.
// A stage that failed without a failed test to show for it (lint, the build, a test file that did
// not load, a run stopped by its time limit) counts as one failure, so the line never reads
// "0 failed" for a run that failed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...failedStages] = process.argv.slice(2);
const read = (name) => (existsSync(join(dir, name)) ? JSON.parse(readFileSync(join(dir, name), 'utf8')) : null);

/** Each test stage's counts from its report (null: no report was written). */
function jestCounts(name) {
  const r = read(name);
  return (
    r && {
      passed: r.numPassedTests,
      failed: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0),
      skipped: r.numPendingTests + (r.numTodoTests ?? 0),
    }
  );
}
function e2eCounts(name) {
  const r = read(name);
  return (
    r && {
      passed: r.stats.expected + (r.stats.flaky ?? 0),
      failed: r.stats.unexpected + (r.errors?.length ?? 0), // errors: global set-up or a file that did not load
      skipped: r.stats.skipped ?? 0,
    }
  );
}
/** Two reports of one stage added up (either may be missing). */
function sum(a, b) {
  if (!a || !b) return a ?? b;
  return { passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped };
}
// Keyed by stage name (scripts/test.sh): a failed stage with a failed test is not counted twice.
const reports = {
  'jest (web)': jestCounts('jest-web.json'),
  'api tests (SQLite, PostgreSQL)': sum(jestCounts('jest-sqlite.json'), jestCounts('jest-postgres.json')),
  'jest (mail stack)': jestCounts('jest-mail.json'),
  e2e: e2eCounts('e2e.json'),
};

let passed = 0;
let failed = 0;
let skipped = 0;
for (const counts of Object.values(reports)) {
  if (!counts) continue;
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
}
for (const stage of failedStages) if (!(reports[stage]?.failed > 0)) failed += 1;

if (failedStages.length) console.log(`failed stages: ${failedStages.join(', ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
