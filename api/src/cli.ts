import './require-node'; // first: before any import that loads a native addon
import { runCli } from './cli/run-cli';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    // Interactive use: one line is enough, do not wait for end of input.
    if (process.stdin.isTTY && Buffer.concat(chunks).includes(10)) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readStdin,
}).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
