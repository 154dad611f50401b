import { ERROR_CODES } from '@qc/contracts';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HANDLER_CODES } from './error-handler';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

test('every error code the api can emit is listed in @qc/contracts ERROR_CODES', () => {
  const found = new Set<string>(HANDLER_CODES);
  const patterns = [/HttpError\(\s*\d{3},\s*'([a-z_]+)'/g, /unauthorized\(\s*'([a-z_]+)'/g, /\bcode: '([a-z_]+)'/g];
  for (const file of sources(path.resolve(__dirname, '..'))) {
    const text = readFileSync(file, 'utf8');
    for (const re of patterns) for (const m of text.matchAll(re)) found.add(m[1]!);
  }
  expect(found.size).toBeGreaterThan(10); // the scan does find them
  expect([...found].filter((c) => !(ERROR_CODES as readonly string[]).includes(c))).toEqual([]);
});
