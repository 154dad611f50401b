import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The design notes beside the repository (the sibling `shared/` folder) are reference material:
// CI has them, users do not. Nothing in the repository may point at them.
const root = path.resolve(__dirname, '..');
const sibling = path.resolve(root, '..', 'shared');
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root })
  .toString()
  .split('\n')
  .filter((f) => f && f !== 'pnpm-lock.yaml'); // the lockfile's links are relative to each importer

function escapesToSibling(file: string, text: string): string[] {
  const hits: string[] = [];
  for (const m of text.matchAll(/((?:\.\.\/)+)shared\b/g)) {
    const target = path.resolve(root, path.dirname(file), `${m[1]}shared`);
    if (target === sibling || !target.startsWith(root + path.sep)) hits.push(`${file}: ${m[0]}`);
  }
  if (text.includes(sibling)) hits.push(`${file}: ${sibling}`);
  return hits;
}

test('no file references the design notes outside the repository', () => {
  expect(files.length).toBeGreaterThan(10);
  const hits = files.flatMap((f) => {
    let text: string;
    try {
      text = readFileSync(path.join(root, f), 'utf8');
    } catch {
      return []; // deleted in the work tree
    }
    return escapesToSibling(f, text);
  });
  expect(hits).toEqual([]);
});

test('the check sees a reference when there is one', () => {
  expect(escapesToSibling('README.md', 'see ../shared/DESIGN.md')).toHaveLength(1);
  expect(escapesToSibling('host/webpack.config.js', "require('../shared/mf-config')")).toHaveLength(0);
});
