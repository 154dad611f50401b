import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAllowList } from '../api/src/modules/rspamd-maps/maps.service';
import { consoleCsp } from '../api/src/modules/web/csp';

// Docker has no engine on the machines that run the tests (DESIGN §2), so docker-compose.yml is
// checked statically: the services of DESIGN §1, how each is built, its health check, and the
// api's wiring (PostgreSQL, required secret). The file is read with the small YAML-subset parser
// below (block mappings and sequences, quoted and plain scalars, one-line flow sequences); it
// refuses anything else (anchors, multi-line scalars, flow mappings) rather than misreading it.

type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };
interface Line {
  indent: number;
  text: string;
  no: number;
}

function stripComment(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

function splitFlow(inner: string, no: number): string[] {
  const items: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const c of inner) {
    if (quote) {
      cur += c;
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (c === ',') {
      items.push(cur.trim());
      cur = '';
    } else if (c === '[' || c === '{') throw new Error(`line ${no}: nested flow collections are not supported`);
    else cur += c;
  }
  if (cur.trim()) items.push(cur.trim());
  return items;
}

function scalar(raw: string, no: number): Yaml {
  const s = raw.trim();
  if (s === '' || s === '~' || s === 'null') return null;
  if (/^[&*!|>{]/.test(s) || s.startsWith('<<')) throw new Error(`line ${no}: unsupported YAML: ${s}`);
  if (s.startsWith('[')) {
    if (!s.endsWith(']')) throw new Error(`line ${no}: multi-line flow sequences are not supported`);
    return splitFlow(s.slice(1, -1), no).map((item) => scalar(item, no));
  }
  if (s.startsWith("'")) {
    if (!s.endsWith("'") || s.length < 2) throw new Error(`line ${no}: unterminated quoted string`);
    return s.slice(1, -1).replace(/''/g, "'");
  }
  if (s.startsWith('"')) {
    if (!s.endsWith('"') || s.length < 2) throw new Error(`line ${no}: unterminated quoted string`);
    return JSON.parse(s) as string;
  }
  if (s === 'true' || s === 'false') return s === 'true';
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  return s;
}

/** Splits `key: value` (key plain or quoted); returns null when the text is not a mapping entry. */
function keyValue(text: string): [string, string] | null {
  const m = /^('(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|[^'"\s][^:]*?)\s*:(?:\s+(.*))?$/.exec(text);
  if (!m) return null;
  const key = m[1]!;
  return [key.startsWith("'") || key.startsWith('"') ? String(scalar(key, 0)) : key, m[2] ?? ''];
}

export function parseYamlSubset(source: string): Yaml {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, i) => {
    if (raw.includes('\t')) throw new Error(`line ${i + 1}: tabs are not allowed`);
    const text = stripComment(raw);
    if (text.trim() === '') return;
    if (/^(---|\.\.\.)\s*$/.test(text)) throw new Error(`line ${i + 1}: multiple documents are not supported`);
    lines.push({ indent: text.length - text.trimStart().length, text: text.trim(), no: i + 1 });
  });
  let pos = 0;

  function block(indent: number): Yaml {
    const first = lines[pos];
    if (!first || first.indent < indent) return null;
    return first.text === '-' || first.text.startsWith('- ') ? sequence(first.indent) : mapping(first.indent);
  }

  function value(rest: string, parentIndent: number, no: number): Yaml {
    if (rest !== '') return scalar(rest, no);
    const next = lines[pos];
    if (!next) return null;
    // A sequence may sit at its key's indentation; anything else must be indented deeper.
    if (next.indent > parentIndent) return block(next.indent);
    if (next.indent === parentIndent && (next.text === '-' || next.text.startsWith('- ')))
      return sequence(parentIndent);
    return null;
  }

  function mapping(indent: number, firstInline?: Line): Yaml {
    const out: { [key: string]: Yaml } = {};
    let line: Line | undefined = firstInline;
    for (;;) {
      if (!line) {
        const next = lines[pos];
        if (!next || next.indent < indent) break;
        if (next.indent > indent) throw new Error(`line ${next.no}: unexpected indentation`);
        if (next.text.startsWith('- ') || next.text === '-') break;
        line = next;
        pos++;
      }
      const kv = keyValue(line.text);
      if (!kv) throw new Error(`line ${line.no}: expected "key: value", got: ${line.text}`);
      if (kv[0] in out) throw new Error(`line ${line.no}: duplicate key ${kv[0]}`);
      out[kv[0]] = value(kv[1], indent, line.no);
      line = undefined;
    }
    return out;
  }

  function sequence(indent: number): Yaml {
    const out: Yaml[] = [];
    for (;;) {
      const line = lines[pos];
      if (!line || line.indent !== indent || !(line.text === '-' || line.text.startsWith('- '))) break;
      pos++;
      const rest = line.text === '-' ? '' : line.text.slice(2).trim();
      if (rest === '') out.push(value('', indent, line.no));
      else if (!rest.startsWith("'") && !rest.startsWith('"') && !rest.startsWith('[') && keyValue(rest)) {
        // "- key: value" starts a mapping whose keys sit two columns further in
        out.push(mapping(indent + 2, { indent: indent + 2, text: rest, no: line.no }));
      } else out.push(scalar(rest, line.no));
    }
    return out;
  }

  const doc = block(0);
  if (pos !== lines.length) throw new Error(`line ${lines[pos]!.no}: could not parse: ${lines[pos]!.text}`);
  return doc;
}

// ---------------------------------------------------------------------------------------------

const root = path.resolve(__dirname, '..');
type Obj = { [key: string]: Yaml };
const obj = (v: Yaml | undefined): Obj => {
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) throw new Error('expected a mapping');
  return v as Obj;
};
const compose = obj(parseYamlSubset(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')));
const services = obj(compose.services);
const REMOTES = ['remote-mail', 'remote-admin', 'remote-rspamd', 'remote-haraka'];

describe('YAML subset parser', () => {
  test('reads mappings, sequences, quoting and flow lists', () => {
    const doc = parseYamlSubset(
      [
        'a:',
        '  b: 1',
        "  c: 'it''s # not a comment'",
        '  d: ["x", y] # comment',
        '  e:',
        '    - k: v',
        '      n: true',
        '    - plain',
        'f:',
        '- z',
      ].join('\n'),
    );
    expect(doc).toEqual({
      a: { b: 1, c: "it's # not a comment", d: ['x', 'y'], e: [{ k: 'v', n: true }, 'plain'] },
      f: ['z'],
    });
  });
  test('refuses what it does not understand', () => {
    expect(() => parseYamlSubset('a: &x 1\nb: *x')).toThrow(/unsupported/);
    expect(() => parseYamlSubset('a: |\n  text')).toThrow(/unsupported/);
    expect(() => parseYamlSubset('a: 1\na: 2')).toThrow(/duplicate/);
  });
});

describe('docker-compose.yml', () => {
  test('has every container of DESIGN §1', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['api', 'haraka', 'host', 'postgres', 'redis', 'rspamd', ...REMOTES].sort(),
    );
  });

  test('every service has an image or a build whose Dockerfile exists', () => {
    const all = Object.entries(services).map(([name, raw]) => ({ name, svc: obj(raw) }));
    const pulled = all.filter(({ svc }) => svc.image !== undefined);
    for (const { svc } of pulled) {
      expect(typeof svc.image).toBe('string');
      expect(String(svc.image)).toMatch(/^[\w./-]+:[\w.-]+$/); // pinned tag, never implicit latest
    }
    const built = all
      .filter(({ svc }) => svc.image === undefined)
      .map(({ name, svc }) => {
        const build = obj(svc.build);
        const context = path.resolve(root, String(build.context));
        return {
          name,
          target: build.target,
          dockerfile: path.resolve(context, String(build.dockerfile ?? 'Dockerfile')),
        };
      });
    expect(pulled.length + built.length).toBe(all.length);
    for (const { name, dockerfile } of built) {
      expect({ name, exists: existsSync(dockerfile) }).toEqual({ name, exists: true });
    }
    for (const { dockerfile, target } of built.filter((b) => b.target !== undefined)) {
      expect(readFileSync(dockerfile, 'utf8')).toMatch(new RegExp(`^FROM .+ AS ${String(target)}$`, 'm'));
    }
  });

  test('every service has a health check', () => {
    for (const [name, raw] of Object.entries(services)) {
      const hc = obj(obj(raw).healthcheck);
      const test = hc.test as Yaml[];
      expect({ name, ok: Array.isArray(test) && ['CMD', 'CMD-SHELL'].includes(String(test[0])) }).toEqual({
        name,
        ok: true,
      });
      expect(test.length).toBeGreaterThan(1);
      expect(String(hc.interval)).toMatch(/^\d+s$/);
    }
  });

  test('the api uses PostgreSQL and requires its secrets', () => {
    const api = obj(services.api);
    const env = obj(api.environment);
    expect(String(env.QC_DATABASE_URL)).toMatch(/^postgres:\/\/[^@]+@postgres:5432\/\w+$/);
    // ${VAR:?message} makes compose refuse to start without it: no default secret ever ships.
    for (const key of ['QC_SECRET_KEY', 'QC_INGEST_TOKEN', 'QC_ADMIN_PASSWORD']) {
      expect(String(env[key])).toMatch(new RegExp(`^\\$\\{${key}:\\?`));
    }
    expect(String(env.QC_DATABASE_URL)).toContain('${POSTGRES_PASSWORD:?');
    expect(String(obj(obj(services.postgres).environment).POSTGRES_PASSWORD)).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(obj(obj(api.depends_on).postgres).condition).toBe('service_healthy');
    expect(env.QC_HOST).toBe('0.0.0.0');
    expect(env.QC_REMOTES_FILE).toBe('/config/remotes.json');
    // The folder is mounted, not the file: an editor that replaces the file is still followed.
    expect((api.volumes as string[]).some((v) => v.endsWith(':/config:ro'))).toBe(true);
  });

  test('the mail stack is wired: Haraka → api and Rspamd, Rspamd → Redis', () => {
    const haraka = obj(services.haraka);
    expect(obj(haraka.environment).QC_API_URL).toBe('http://api:8080');
    expect(String(obj(haraka.environment).QC_INGEST_TOKEN)).toMatch(/^\$\{QC_INGEST_TOKEN:\?/);
    expect(Object.keys(obj(haraka.depends_on)).sort()).toEqual(['api', 'rspamd']);
    expect(obj(obj(services.rspamd).depends_on).redis).toEqual({ condition: 'service_healthy' });
    expect(obj(obj(services.rspamd).environment).RSPAMD_REDIS).toBe('redis:6379');
  });

  test('Haraka listens on the container network and reaches Rspamd and the next hop by name', () => {
    const env = obj(obj(services.haraka).environment);
    for (const key of ['HARAKA_DOMAINS', 'HARAKA_NEXT_HOP']) {
      expect(String(env[key])).toMatch(new RegExp(`^\\$\\{${key}:\\?`));
    }
    expect(obj(services.haraka).volumes).toContain('./mailstack/haraka/config:/haraka/config-src:ro');
    // The entrypoint adapts the loopback stack's config; run it on a copy and read what it wrote.
    const app = mkdtempSync(path.join(os.tmpdir(), 'qc-haraka-'));
    const harakaEnv = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HARAKA_CONFIG_SRC: path.join(root, 'mailstack/haraka/config'),
      HARAKA_APP_DIR: app,
      HARAKA_DOMAINS: 'a.example, b.example',
      HARAKA_NEXT_HOP: 'mx.internal:2525',
      HARAKA_ME: 'mx.a.example',
    };
    try {
      execFileSync('sh', [path.join(root, 'docker/haraka/entrypoint.sh'), '--config-only'], { env: harakaEnv });
      const read = (file: string) => readFileSync(path.join(app, 'config', file), 'utf8');
      expect(read('smtp.ini')).toMatch(/^listen=\[::0\]:25$/m);
      expect(read('smtp.ini')).toMatch(/^user=node$/m);
      expect(read('rspamd.ini')).toMatch(/^host=rspamd$/m);
      expect(read('smtp_forward.ini')).toMatch(/^host=mx\.internal$/m);
      expect(read('smtp_forward.ini')).toMatch(/^port=2525$/m);
      expect(read('host_list')).toBe('a.example\nb.example\n');
      expect(read('me')).toBe('mx.a.example\n');
      expect(read('plugins')).toBe(readFileSync(path.join(root, 'mailstack/haraka/config/plugins'), 'utf8'));
      // A value that would break its ini line, or name nothing, stops the container with its reason.
      for (const [key, value, reason] of [
        ['HARAKA_NEXT_HOP', 'relay|x:25', /HARAKA_NEXT_HOP may hold only/],
        ['HARAKA_NEXT_HOP', 'relay.example', /must be host:port/],
        ['HARAKA_DOMAINS', ' , ', /names no domain/],
        ['RSPAMD_HOST', 'a&b', /RSPAMD_HOST may hold only/],
      ] as const) {
        expect(() =>
          execFileSync('sh', [path.join(root, 'docker/haraka/entrypoint.sh'), '--config-only'], {
            env: { ...harakaEnv, [key]: value },
            stdio: 'pipe',
          }),
        ).toThrow(reason);
      }
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });

  test('Rspamd fetches the console rules from the api; nothing else may (not the host proxy, not outside)', () => {
    const rspamd = obj(services.rspamd);
    const apiEnv = obj(obj(services.api).environment);
    const rspamdEnv = obj(rspamd.environment);
    // One secret, required, given to both. In the rspamd container only the maps proxy holds it:
    // Rspamd logs its map URLs, which name the proxy on its loopback (mailstack/rspamd/maps-proxy).
    for (const env of [apiEnv, rspamdEnv])
      expect(String(env.QC_RSPAMD_MAPS_TOKEN)).toMatch(/^\$\{QC_RSPAMD_MAPS_TOKEN:\?/);
    expect(rspamdEnv.QC_RSPAMD_MAPS_URL).toBe('http://api:8080/api/rspamd/maps');
    expect(rspamd.volumes).toContain('./mailstack/rspamd/maps-proxy:/etc/qc/maps-proxy:ro');
    const entrypoint = readFileSync(path.join(root, 'docker/rspamd/entrypoint.sh'), 'utf8');
    expect(entrypoint).toMatch(/^QC_MAPS_PROXY_LISTEN=127\.0\.0\.1:11380 sh \/etc\/qc\/maps-proxy\/render\.sh /m);
    expect(entrypoint).toMatch(/^unset QC_RSPAMD_MAPS_TOKEN$/m);
    expect(entrypoint).toMatch(/^exec rspamd .* "--var=QC_MAPS_URL=http:\/\/127\.0\.0\.1:11380\/api\/rspamd\/maps"$/m);
    expect(obj(obj(rspamd.depends_on).api).condition).toBe('service_healthy');
    // The allow-list holds the rspamd container's fixed address, outside the range handed out to the
    // other containers, and not the host proxy's.
    const ipOf = (name: string) => String(obj(obj(obj(services[name]).networks).qc).ipv4_address);
    const allowed = createAllowList(String(apiEnv.QC_RSPAMD_MAPS_ALLOW).split(','));
    expect(allowed(ipOf('rspamd'))).toBe(true);
    expect(allowed(ipOf('host'))).toBe(false);
    const ipam = (obj(obj(obj(compose.networks).qc).ipam).config as Obj[])[0]!;
    const dynamic = createAllowList([String(ipam.ip_range)]);
    expect(dynamic(ipOf('rspamd'))).toBe(false);
    expect(createAllowList([String(ipam.subnet)])(ipOf('rspamd'))).toBe(true);
    // The rules' config reaches the container (local.d is the repository's, mounted as is).
    expect(rspamd.volumes).toContain('./mailstack/rspamd/local.d:/etc/rspamd/local.d:ro');
    for (const file of ['multimap.conf', 'rspamd.lua', 'actions.conf']) {
      expect(existsSync(path.join(root, 'mailstack/rspamd/local.d', file))).toBe(true);
    }
    // The host's nginx refuses the path before its /api/ proxy (^~: no regex location either).
    const conf = readFileSync(path.join(root, 'docker/nginx/host.conf.template'), 'utf8');
    expect(conf).toMatch(/location \^~ \/api\/rspamd\/maps\/ \{\s*return 404;\s*\}/);
  });

  test("Rspamd loads nothing from outside the machine: Debian's network maps are local files here", () => {
    const rspamd = obj(services.rspamd);
    // The loopback stack's override files (mailstack/rspamd/hermetic), mounted and copied into override.d.
    expect(rspamd.volumes).toContain('./mailstack/rspamd/hermetic:/etc/rspamd/hermetic:ro');
    const entrypoint = readFileSync(path.join(root, 'docker/rspamd/entrypoint.sh'), 'utf8');
    expect(entrypoint).toMatch(/^HERMETIC=\/etc\/rspamd\/hermetic$/m);
    expect(entrypoint).toMatch(/^cp "\$HERMETIC"\/\*\.conf "\$OVR\/"$/m);
    const hermetic = path.join(root, 'mailstack/rspamd/hermetic');
    // One override per Debian module that fetches from maps.rspamd.com (mailstack/test/hermetic.test.js
    // checks with the real rspamadm that none is left).
    expect(readdirSync(hermetic).filter((f) => f.endsWith('.conf'))).toEqual(
      expect.arrayContaining([
        'mid.conf',
        'mime_types.conf',
        'multimap.conf',
        'phishing.conf',
        'rbl.conf',
        'whitelist.conf',
      ]),
    );
    const multimap = readFileSync(path.join(hermetic, 'multimap.conf'), 'utf8');
    for (const list of ['freemail', 'disposable'])
      for (const where of ['envfrom', 'envrcpt', 'from', 'to', 'cc', 'replyto'])
        expect(multimap).toMatch(
          new RegExp(`^${list}_${where} \\{[^}]*map = "\\$LOCAL_CONFDIR/hermetic/empty\\.map";`, 'm'),
        );
    expect(existsSync(path.join(hermetic, 'empty.map'))).toBe(true);
    // Every URL written in the mounted config (comments aside) is a local file; the console's maps are
    // ${QC_MAPS_URL}/<name>, the api's address given on the command line.
    const code = (file: string) => {
      const text = readFileSync(file, 'utf8');
      return file.endsWith('.lua')
        ? text.replace(/--\[(=*)\[[\s\S]*?\]\1\]/g, '').replace(/--.*$/gm, '')
        : text.replace(/^\s*#.*$/gm, '');
    };
    const files = ['local.d', 'hermetic'].flatMap((dir) =>
      readdirSync(path.join(root, 'mailstack/rspamd', dir))
        .filter((f) => /\.(conf|inc|lua|map)$/.test(f))
        .map((f) => path.join(root, 'mailstack/rspamd', dir, f)),
    );
    const urls = files.flatMap((file) =>
      [...code(file).matchAll(/[\w+;]*[a-z]+:\/\/[^"'\s]*/gi)].map((m) => ({ file: path.basename(file), url: m[0] })),
    );
    expect(urls.filter(({ url }) => !/^fallback\+file:\/\/\$\{CONFDIR\}\//.test(url))).toEqual([]);
    expect(code(path.join(root, 'mailstack/rspamd/local.d/multimap.conf'))).toMatch(/map = "\$\{QC_MAPS_URL\}\//);
  });

  test('the host proxies the api on the console origin and sets a CSP', () => {
    const host = obj(services.host);
    const args = obj(obj(host.build).args);
    expect(args.APP).toBe('host');
    const conf = readFileSync(path.join(root, 'docker', 'nginx', `${String(args.NGINX_CONF)}.conf.template`), 'utf8');
    expect(conf).toMatch(/location \/api\/ \{\s*proxy_pass http:\/\/api:8080;/);
    expect(conf).toMatch(/location = \/remotes\.json \{\s*proxy_pass http:\/\/api:8080;/);
    // The shell gets the same policy from nginx as from the api (`npm start`).
    const nginxCsp = /set \$csp "([^"]+)";/.exec(conf)?.[1];
    expect(nginxCsp).toBe(consoleCsp(['${QC_REMOTE_ORIGINS}']));
    expect(obj(obj(host.depends_on).api).condition).toBe('service_healthy');
  });

  test('each remote is its own web container; the ones not in the repository yet are profile-gated', () => {
    for (const name of REMOTES) {
      const args = obj(obj(obj(services[name]).build).args);
      expect(args.APP).toBe(name);
      expect(args.NGINX_CONF).toBe('remote');
    }
    // `docker compose up` (no profile) must only build what exists
    const absent = REMOTES.filter((name) => !existsSync(path.join(root, name, 'package.json')));
    expect(absent.map((name) => ({ name, profiles: obj(services[name]).profiles }))).toEqual(
      absent.map((name) => ({ name, profiles: ['all-remotes'] })),
    );
    expect(obj(services['remote-mail']).profiles).toBeUndefined();
    expect(obj(services['remote-rspamd']).profiles).toBeUndefined();
    expect(obj(services['remote-haraka']).profiles).toBeUndefined();
  });

  test('remote-haraka carries its own version string into its image (issue 19)', () => {
    const args = obj(obj(obj(services['remote-haraka']).build).args);
    expect(args.QC_REMOTE_VERSION).toBe('${QC_REMOTE_HARAKA_VERSION:-}');
    // The stage that runs the build declares it (a build arg reaches only the stages that do) and hands
    // it to the build, where webpack bakes it into the pages.
    const dockerfile = readFileSync(path.join(root, 'docker/node-build.Dockerfile'), 'utf8');
    const stage = /^FROM workspace AS build-web\n([\s\S]*?)(?=^FROM )/m.exec(dockerfile)?.[1] ?? '';
    expect(stage).toMatch(/^ARG QC_REMOTE_VERSION=?$/m);
    expect(stage).toMatch(/QC_REMOTE_VERSION="\$QC_REMOTE_VERSION" pnpm --filter "\.\/\$APP" run build/);
    const webpackConfig = readFileSync(path.join(root, 'remote-haraka/webpack.config.js'), 'utf8');
    expect(webpackConfig).toMatch(/process\.env\.QC_REMOTE_VERSION/);
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toMatch(
      /QC_REMOTE_HARAKA_VERSION=[\w.-]+ docker compose build remote-haraka/,
    );
  });

  test('the remotes files point at the published remote ports', () => {
    const published = new Map<string, string>();
    for (const [name, raw] of Object.entries(services)) {
      for (const p of (obj(raw).ports as string[] | undefined) ?? []) {
        const m = /^\$\{\w+:-(\d+)\}:(\d+)$|^(\d+):(\d+)$/.exec(String(p));
        expect(m).not.toBeNull();
        const hostPort = m![1] ?? m![3]!;
        expect(published.has(hostPort)).toBe(false); // no port published twice
        published.set(hostPort, name);
      }
    }
    const file = path.join(root, 'docker', 'remotes', 'remotes.json');
    const remotes = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    // Every remote of the repository is listed (and served by its own container).
    expect(Object.keys(remotes).sort()).toEqual(REMOTES.map((r) => r.replace('-', '_')).sort());
    for (const [container, url] of Object.entries(remotes)) {
      const u = new URL(url);
      expect(u.pathname).toBe('/mf-manifest.json');
      expect(published.get(u.port)).toBe(container.replace('_', '-'));
    }
  });

  test('docker/example.env names every required variable and ships no secret', () => {
    const example = Object.fromEntries(
      readFileSync(path.join(root, 'docker', 'example.env'), 'utf8')
        .split('\n')
        .filter((line) => /^\w+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const required = [...readFileSync(path.join(root, 'docker-compose.yml'), 'utf8').matchAll(/\$\{(\w+):\?/g)].map(
      (m) => m[1]!,
    );
    expect(required.filter((name) => !(name in example))).toEqual([]);
    const secrets = Object.keys(example).filter((name) => /PASSWORD|SECRET|TOKEN/.test(name));
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    expect(secrets.filter((name) => example[name] !== '')).toEqual([]);
  });

  test('every named volume is declared and every service is on the network', () => {
    const declared = Object.keys(obj(compose.volumes));
    for (const [name, raw] of Object.entries(services)) {
      const named = ((obj(raw).volumes as string[] | undefined) ?? [])
        .map((v) => String(v).split(':')[0]!)
        .filter((source) => !/^[.$/]/.test(source)); // not a bind mount
      expect({ name, undeclared: named.filter((source) => !declared.includes(source)) }).toEqual({
        name,
        undeclared: [],
      });
      const nets = obj(raw).networks;
      expect(Array.isArray(nets) ? nets : Object.keys(obj(nets))).toContain('qc');
    }
  });
});
