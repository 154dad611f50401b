import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { ROOT, type DirectoryInfo } from './stack';

/**
 * The directory side of an e2e run (issue 31), started ONCE by global-setup.ts: the repository's
 * OpenLDAP (scripts/ldap.sh, shared with the api tests), a subtree of its own made by the api
 * tests' helper (api/src/test/ldap.ts: the seed's people and groups), and a TCP relay in front of
 * slapd that the specs cut and restore ("the directory stopped mid-run") through a control
 * endpoint, which also changes a group's members.
 */

/** What the specs use of api/src/test/ldap.ts (loaded at run time: the e2e typecheck stays out of the api). */
interface TestDirectory {
  env: Record<string, string>;
  password(uid: string): string;
  setGroupMembers(cn: string, uids: string[]): Promise<void>;
  cleanup(): Promise<void>;
}
interface Relay {
  port: number;
  close(): Promise<void>;
}
interface LdapHelpers {
  createTestDirectory(): Promise<TestDirectory>;
  tcpRelay(target: { host: string; port: number }, host?: string, port?: number): Promise<Relay>;
  urlAddress(url: string): { host: string; port: number };
}

export interface DirectoryHarness {
  /** The api's QC_LDAP_* variables (through the relay). */
  env: Record<string, string>;
  info: DirectoryInfo;
  close(): Promise<void>;
}

export async function startDirectoryHarness(): Promise<DirectoryHarness> {
  // Up already when npm test started it; else started here (installed with apt when missing).
  execFileSync('bash', [path.join(ROOT, 'scripts/ldap.sh'), 'start'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
  });
  const ldap = (await import(path.join(ROOT, 'api/src/test/ldap.ts'))) as LdapHelpers;
  const dir = await ldap.createTestDirectory();
  const target = ldap.urlAddress(dir.env.QC_LDAP_URL!);
  let relay: Relay | null = await ldap.tcpRelay(target);
  const relayPort = relay.port;

  const control = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      const route = `${req.method} ${req.url}`;
      const run = async () => {
        switch (route) {
          case 'POST /directory/down':
            await relay?.close();
            relay = null;
            return reply(204);
          case 'POST /directory/up':
            relay ??= await ldap.tcpRelay(target, '127.0.0.1', relayPort);
            return reply(204);
          case 'PUT /directory/group': {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { cn: string; uids: string[] };
            await dir.setGroupMembers(body.cn, body.uids);
            return reply(204);
          }
          default:
            return reply(404, { detail: `no route ${route}` });
        }
      };
      run().catch((e: Error) => reply(500, { detail: e.message }));
    });
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', () => resolve()));
  const person = (uid: string) => ({ email: `${uid}@example.com`, password: dir.password(uid) });
  return {
    env: { ...dir.env, QC_LDAP_URL: `ldap://127.0.0.1:${relayPort}` },
    info: {
      controlUrl: `http://127.0.0.1:${(control.address() as net.AddressInfo).port}`,
      people: { alice: person('alice'), bob: person('bob'), carol: person('carol') },
      aliceAlias: 'alice.smith@example.com',
    },
    async close() {
      await new Promise<void>((resolve) => control.close(() => resolve()));
      await relay?.close();
      await dir.cleanup();
    },
  };
}
