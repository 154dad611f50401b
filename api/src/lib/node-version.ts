/**
 * The oldest Node.js the api runs on. better-sqlite3 13 needs 22 (on 20 it crashes the process with
 * a segmentation fault, not an error); the project itself installs and runs Node 24 (DESIGN §2).
 */
export const MIN_NODE_MAJOR = 22;

/** Why this Node.js cannot run the api, or undefined when it can. */
export function unsupportedNode(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (major >= MIN_NODE_MAJOR) return undefined;
  return (
    `Quarantine Console needs Node.js ${MIN_NODE_MAJOR} or newer; this is Node.js ${version}. ` +
    `Start it with 'npm start' (or 'npm run serve'), which run the project's own Node.js 24 from .tools/node.`
  );
}
