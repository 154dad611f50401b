// Imported first by the entry points: stops before anything loads a native addon that an older
// Node.js would crash on, with a message that says what to do.
import { unsupportedNode } from './lib/node-version';

const problem = unsupportedNode(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
