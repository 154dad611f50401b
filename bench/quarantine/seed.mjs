// Deterministic bench data written straight in SQL (no raw bodies), after the notes' method: row i
// is the same at every size except for its time; 365 days; 40 recipient domains with a Zipf-like
// skew (d0 ≈ 23 % of mail); 200 users per domain (u<k>@d<n>.example), one mail in five also to a
// second recipient (v<k>@…); older than 30 days mostly deleted (88 %), recent mostly pending;
// subjects from 50 templates ("invoice", "parcel" and "account" each in 8 %) plus a unique token
// Q<number> (the rare search term); a history of n/10 actions.
export const DAY = 86_400_000;
export const DOMAINS = 40;

/** Subject templates: three common words in 4 templates each (8 % of mail each). */
const SUBJECTS = Array.from({ length: 50 }, (_, k) => {
  if (k < 4) return `Your invoice ${k + 1} is overdue`;
  if (k < 8) return `Parcel waiting at depot ${k}`;
  if (k < 12) return `Account notice ${k}: verify now`;
  return `Offer number ${k} just for you`;
});

/** The rare term of row i (present at every size for i < 10,000). */
export const rareTerm = (i) => `Q${(i * 7919) % 10_000_019}`;
export const COMMON_TERMS = ['invoice', 'parcel', 'account'];

const hash = (dialect, expr) =>
  dialect === 'postgres' ? `((${expr})::bigint * 2654435761) % 4294967296` : `((${expr}) * 2654435761) % 4294967296`;

/** d<n>.example for a 32-bit hash: P(d ≤ k) = ((k + 1) / 40) ^ 0.4. */
function domainCase(h) {
  const branches = [];
  for (let d = 0; d < DOMAINS - 1; d++) {
    const bound = Math.floor(2 ** 32 * ((d + 1) / DOMAINS) ** 0.4);
    branches.push(`when ${h} < ${bound} then 'd${d}.example'`);
  }
  return `case ${branches.join(' ')} else 'd${DOMAINS - 1}.example' end`;
}

/** WITH clause: g(i) for 0 ≤ i < n, and b(i, h, h2, ra, dom, dom2, roll). */
function base(dialect, n, now) {
  const g =
    dialect === 'postgres'
      ? `g(i) as (select generate_series(0::bigint, ${n - 1}::bigint))`
      : `g(i) as (select 0 union all select i + 1 from g where i < ${n - 1})`;
  return `with recursive ${g},
    x as (select i, ${hash(dialect, 'i + 1')} as h, ${hash(dialect, 'i + 8')} as h2 from g),
    b as (select i, h, h2, ${now} - (i * ${365 * DAY} / ${n}) - (h % 60000) as ra,
      ${domainCase('h')} as dom, ${domainCase('h2')} as dom2, (h / 4096) % 100 as roll, (h2 / 4096) % 100 as roll2
      from x)`;
}

const idOf = (dialect, prefix) =>
  dialect === 'postgres'
    ? `'${prefix}' || lpad(ra::text, 13, '0') || lpad(i::text, 7, '0')`
    : `printf('${prefix}%013d%07d', ra, i)`;

function statusCase(roll, now) {
  return `case when ra < ${now - 30 * DAY}
      then case when ${roll} < 88 then 'deleted' when ${roll} < 95 then 'released' else 'pending' end
      else case when ${roll} < 70 then 'pending' when ${roll} < 85 then 'released' else 'deleted' end end`;
}

/**
 * Seeds a migrated, empty database. `exec(text)` runs one SQL statement. Returns timings (ms).
 * `historyActor`: the user id some history rows belong to (the "user" history page).
 * `fillHistoryAudience()`: the api's migration 0012 step that gives history rows their readers.
 */
export async function seedDatabase({ dialect, exec, n, now, historyActor, fillHistoryAudience }) {
  const t = {};
  const time = async (name, fn) => {
    const t0 = performance.now();
    await fn();
    t[name] = Math.round(performance.now() - t0);
  };
  const pg = dialect === 'postgres';
  const folded = ['subject', 'sender', 'envelope_from', 'search_extra'];
  const trgm = [
    'qm_subject_trgm',
    'qm_sender_trgm',
    'qm_envelope_from_trgm',
    'qr_recipient_trgm',
    ...folded.map((c) => `qm_${c}_fold_trgm`),
  ];
  if (pg) for (const index of trgm) await exec(`drop index if exists ${index}`);

  await exec('create table bench_subjects (k integer primary key, text text not null)');
  await exec(
    `insert into bench_subjects (k, text) values ${SUBJECTS.map((s, k) => `(${k}, '${s.replace(/'/g, "''")}')`).join(', ')}`,
  );
  await time('messages', () =>
    exec(`${base(dialect, n, now)}
      insert into quarantine_messages (id, received_at, sender, subject, score, action, size, created_at,
        envelope_from, recipient_count, sender_domain)
      select ${idOf(dialect, 'M')}, ra, 'sender' || (h % 5000) || '@spam' || (h % 300) || '.example',
        s.text || ' Q' || ((i * 7919) % 10000019), (h % 2500) / 100.0,
        case (h / 256) % 4 when 0 then 'reject' when 1 then 'add_header' when 2 then 'quarantine' else 'rewrite_subject' end,
        2000 + h % 50000, ra, 'bounce' || (h % 7000) || '@mailer' || (h % 300) || '.example',
        case when i % 5 = 0 then 2 else 1 end, 'spam' || (h % 300) || '.example'
      from b join bench_subjects s on s.k = (h / 65536) % 50`),
  );
  await time('recipients', () =>
    exec(`${base(dialect, n, now)}
      insert into quarantine_recipients (message_id, recipient, domain, status, received_at, updated_at)
      select id, rcpt, dom, st, ra,
        case when st = 'pending' then ra when ra + hh % ${DAY} > ${now} then ${now} else ra + hh % ${DAY} end
      from (
        select ${idOf(dialect, 'M')} as id, 'u' || ((h / 128) % 200) || '@' || dom as rcpt, dom,
          ${statusCase('roll', now)} as st, ra, h as hh from b
        union all
        select ${idOf(dialect, 'M')}, 'v' || ((h2 / 128) % 200) || '@' || dom2, dom2,
          ${statusCase('roll2', now)}, ra, h2 from b where i % 5 = 0
      ) r`),
  );
  await exec('drop table bench_subjects');
  const hn = Math.max(1, Math.floor(n / 10));
  await time('history', async () => {
    await exec(`${base(dialect, hn, now)}
      insert into history (id, created_at, actor_id, actor_email, actor_role, actor_domain, action, email_id,
        ip_address, result, code)
      select ${idOf(dialect, 'H')}, ra, case when i % 50 = 0 then '${historyActor}' else null end,
        case when i % 50 = 0 then 'u0@d0.example' else 'u' || ((h / 128) % 200) || '@' || dom end,
        'user', case when i % 50 = 0 then 'd0.example' else dom end,
        case i % 3 when 0 then 'download' when 1 then 'release' else 'delete' end,
        'M' || i, '192.0.2.' || (h % 250), 'success', null
      from b`);
    await fillHistoryAudience();
  });
  await time('text_index', async () => {
    if (pg) {
      const ops = 'public.gin_trgm_ops';
      await exec(`create index qm_subject_trgm on quarantine_messages using gin (subject ${ops})`);
      await exec(`create index qm_sender_trgm on quarantine_messages using gin (sender ${ops})`);
      await exec(`create index qm_envelope_from_trgm on quarantine_messages using gin (envelope_from ${ops})`);
      await exec(`create index qr_recipient_trgm on quarantine_recipients using gin (recipient ${ops})`);
      // Migrations 0019, 0021: the search matches the folded subject, senders, attachment names and URLs.
      for (const c of folded) {
        await exec(`create index qm_${c}_fold_trgm on quarantine_messages using gin (qc_fold(${c}) ${ops})`);
      }
    } else {
      await exec(`insert into quarantine_search (message_id, recipient, domain, body)
        select id, '', '', coalesce(subject, '') || char(10) || sender || char(10) || envelope_from
        from quarantine_messages`);
      await exec(`insert into quarantine_search (message_id, recipient, domain, body)
        select message_id, recipient, domain, recipient from quarantine_recipients`);
    }
  });
  return t;
}
