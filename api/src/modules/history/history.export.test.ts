import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { ingestOk, INGEST_TOKEN, meta, mime } from '../../test/quarantine';
import type { AuthContext } from '../auth/auth.service';
import { csvCell, EXPORT_PAGE_ROWS, historyCsv } from './history.export';
import { insertHistory, readerKey } from './history.repository';

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  for (const [email, role, domain] of [
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
    ['carl@b.example', 'user', 'b.example'],
  ] as const) {
    await t.createUser({ email, role, domain });
    tokens[email] = (await t.login(email)).access;
  }
  // A subject a spreadsheet would run as a formula, with a quote and a comma to escape as well.
  const evil = '=HYPERLINK("http://x.example","click")';
  ids.push(await ingestOk(t, meta({ rcpt_to: ['ann@a.example', 'carl@b.example'] }), mime({ subject: evil })));
  ids.push(await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Félicitations' })));
  const act = async (email: string, method: 'GET' | 'DELETE', url: string) => {
    await new Promise((r) => setTimeout(r, 3)); // distinct milliseconds: a fixed order
    return t.app.inject({ method, url, headers: bearer(tokens[email]!) });
  };
  expect((await act('ann@a.example', 'GET', `/api/quarantine/${ids[0]}/raw/`)).statusCode).toBe(200);
  expect((await act('carl@b.example', 'GET', `/api/quarantine/${ids[0]}/raw/`)).statusCode).toBe(200);
  expect((await act('ann@a.example', 'DELETE', `/api/quarantine/${ids[1]}/`)).statusCode).toBe(204);
  expect((await act('boss@a.example', 'GET', `/api/quarantine/${ids[1]}/raw/`)).statusCode).toBe(200);
}, 60_000);
afterAll(() => t.close());

async function exportCsv(email: string, query = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/history/export/${query}`,
    headers: bearer(tokens[email]!),
  });
  return res;
}

/** The CSV's lines (BOM and final CRLF checked and removed), each split into cells (no quoted commas here). */
function lines(body: string): string[] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  expect(body.endsWith('\r\n')).toBe(true);
  return body.slice(1, -2).split('\r\n');
}

async function listed(email: string, query = ''): Promise<{ id: string; user: { email: string }; action: string }[]> {
  const sep = query ? '&' : '?';
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/history/${query}${sep}page_size=200`,
    headers: bearer(tokens[email]!),
  });
  expect(res.statusCode).toBe(200);
  return res.json().results;
}

test('csvCell: formulas defused, quotes and separators quoted', () => {
  expect(csvCell('=1+1')).toBe("'=1+1");
  expect(csvCell('+33 1')).toBe("'+33 1");
  expect(csvCell('-2')).toBe("'-2");
  expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  expect(csvCell('\tx')).toBe("'\tx");
  expect(csvCell('\rx')).toBe(`"'\rx"`);
  expect(csvCell('a,b')).toBe('"a,b"');
  expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  expect(csvCell('plain é')).toBe('plain é');
  expect(csvCell(null)).toBe('');
});

test('an admin’s export: attachment, BOM, header, every row of the list in its order, formulas defused', async () => {
  const res = await exportCsv('root@admin.example');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="history-\d{4}-\d{2}-\d{2}\.csv"$/);
  const [header, ...rows] = lines(res.body);
  expect(header).toBe('date,user,role,action,result,code,email_id,subject,target_kind,target,changes,ip_address');
  const list = await listed('root@admin.example');
  expect(rows).toHaveLength(list.length);
  expect(rows.map((r) => r.split(',').slice(1, 2)[0])).toEqual(list.map((e) => e.user.email));
  expect(rows[0]).toContain(',Félicitations,');
  // The subject of mail one: apostrophe first, quotes doubled, the whole cell quoted (it has a comma).
  expect(res.body).toContain(`"'=HYPERLINK(""http://x.example"",""click"")"`);
  expect(res.body).not.toMatch(/,=HYPERLINK/);
});

test('each role exports exactly what its list shows; filters apply', async () => {
  for (const email of ['ann@a.example', 'carl@b.example', 'boss@a.example']) {
    const rows = lines((await exportCsv(email)).body).slice(1);
    const list = await listed(email);
    expect([email, rows.map((r) => `${r.split(',')[1]} ${r.split(',')[3]}`)]).toEqual([
      email,
      list.map((e) => `${e.user.email} ${e.action}`),
    ]);
  }
  expect(lines((await exportCsv('carl@b.example')).body).slice(1)).toHaveLength(1);
  const deletes = lines((await exportCsv('root@admin.example', '?action=delete')).body).slice(1);
  expect(deletes.map((r) => r.split(',')[3])).toEqual(['delete']);
  const boss = lines((await exportCsv('root@admin.example', '?user=BOSS')).body).slice(1);
  expect(boss.map((r) => r.split(',')[1])).toEqual(['boss@a.example']);
  expect(lines((await exportCsv('root@admin.example', '?date_to=2000-01-01')).body)).toHaveLength(1);
  // A domain_admin's filter never reaches beyond their domain.
  expect(lines((await exportCsv('boss@a.example', '?user=carl')).body)).toHaveLength(1);
});

test('bad filters are a 400 (nothing streamed); no token is a 401', async () => {
  const bad = await exportCsv('ann@a.example', '?action=nope');
  expect([bad.statusCode, bad.json().code]).toEqual([400, 'validation_error']);
  const reversed = await exportCsv('ann@a.example', '?date_from=2026-11-20&date_to=2026-11-19');
  expect(reversed.statusCode).toBe(400);
  const anon = await t.app.inject({ method: 'GET', url: '/api/history/export/' });
  expect(anon.statusCode).toBe(401);
});

test('?user= is part of an address, in any case, within the caller’s scope; LIKE wildcards are literal', async () => {
  const emails = async (email: string, q: string) => (await listed(email, q)).map((e) => e.user.email);
  expect(await emails('root@admin.example', '?user=ARL%40B')).toEqual(['carl@b.example']);
  expect(await emails('root@admin.example', '?user=a.example')).toEqual([
    'boss@a.example',
    'ann@a.example',
    'ann@a.example',
  ]);
  expect(await emails('boss@a.example', '?user=ann')).toEqual(['ann@a.example', 'ann@a.example']);
  expect(await emails('boss@a.example', '?user=carl')).toEqual([]);
  expect(await emails('root@admin.example', '?user=%25')).toEqual([]);
  expect(await emails('root@admin.example', '?user=_')).toEqual([]);
});

test('streams page after page: more rows than a page, the same as the list, each page one chunk', async () => {
  const other = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  try {
    const admin = await other.createUser({ email: 'ops@x.example', role: 'admin' });
    const token = (await other.login('ops@x.example')).access;
    const total = EXPORT_PAGE_ROWS * 2 + 7;
    const base = Date.now() - 1_000_000;
    await other.db.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i++) {
        await insertHistory(
          trx,
          {
            created_at: base + Math.floor(i / 3), // ties: the id orders them
            actor_id: admin.id,
            actor_email: 'ops@x.example',
            actor_role: 'admin',
            actor_domain: null,
            action: 'login_failed',
            email_id: null,
            result: 'failure',
            code: `n${i}`,
            ip_address: '192.0.2.1',
          },
          [readerKey.user(admin.id)],
        );
      }
    });
    const res = await other.app.inject({ method: 'GET', url: '/api/history/export/', headers: bearer(token) });
    const rows = lines(res.body).slice(1);
    expect(rows).toHaveLength(total);
    const codes = rows.map((r) => r.split(',')[5]);
    expect(new Set(codes).size).toBe(total);
    // Newest first, as the list pages them.
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { json(): { results: { code: string }[]; next_cursor: string | null } } = await other.app.inject({
        method: 'GET',
        url: `/api/history/?page_size=200${cursor ? `&cursor=${cursor}` : ''}`,
        headers: bearer(token),
      });
      ids.push(...page.json().results.map((e) => e.code));
      cursor = page.json().next_cursor;
    } while (cursor);
    expect(codes).toEqual(ids);

    // The generator yields the header, then one chunk a database page; a cap stops it mid-page.
    const auth = { user: { user_id: admin.id, role: 'admin', email: 'ops@x.example', domain_name: null } };
    const chunks: string[] = [];
    for await (const chunk of historyCsv(other.db, auth as unknown as AuthContext, {}, EXPORT_PAGE_ROWS + 3)) {
      chunks.push(chunk);
    }
    expect(chunks).toHaveLength(3);
    expect(chunks.join('').split('\r\n').length - 2).toBe(EXPORT_PAGE_ROWS + 3);
  } finally {
    await other.close();
  }
}, 120_000);
