/** Helpers for this remote's component tests (not bundled: only *.test.tsx import it). */
import { renderExposed } from '@qc/ui/testing';
import type { ReactElement } from 'react';
import ExposedQuarantine from './exposed/Quarantine';
import type { QuarantineDetail, QuarantineItem } from './features/quarantine/quarantine.types';

// The generic helpers (fetch faked with real Responses, router + query client, phone screen,
// notices, antd Select, clock) are every app's: this file holds only this remote's own.
export * from '@qc/ui/testing';

/**
 * The Quarantine page group as the host mounts it: route `mail/*`, a fresh QueryClient (no
 * retries), the i18n instance (French unless a test changes it).
 */
export function renderQuarantine(path = '/mail', extra?: ReactElement) {
  return renderExposed(
    'mail',
    <>
      <ExposedQuarantine />
      {extra}
    </>,
    path,
  );
}

export function listItem(overrides: Partial<QuarantineItem> = {}): QuarantineItem {
  return {
    id: 'm1',
    received_at: '2026-11-20T09:30:00+01:00',
    sender: 'promo@spam.example',
    recipients: ['jane@example.com'],
    recipient_count: overrides.recipients?.length ?? 1,
    subject: 'You won a prize',
    score: 12.5,
    action: 'reject',
    status: 'pending',
    size: 12_800,
    raw_available: true,
    ...overrides,
  };
}

/** A detail as GET /api/quarantine/{id}/ answers it (typed from @qc/contracts). */
export function emailDetail(overrides: Partial<QuarantineDetail> = {}): QuarantineDetail {
  return {
    id: 'm1',
    uuid: 'B1C2D3E4-0001',
    received_at: '2026-11-20T09:30:00+01:00',
    date: '2026-11-20T09:29:00+01:00',
    sender: 'promo@spam.example',
    envelope_from: 'bounce@spam.example',
    recipients: [
      { address: 'jane@example.com', status: 'pending', updated_at: '2026-11-20T09:30:00+01:00' },
      { address: 'bob@example.com', status: 'released', updated_at: '2026-11-20T10:00:00+01:00' },
    ],
    recipient_count: 2,
    recipients_truncated: false,
    status: 'pending',
    subject: 'You won a prize',
    score: 12.5,
    required_score: 15,
    action: 'quarantine',
    dkim: 'fail',
    spf: 'softfail',
    size: 12_800,
    message_id: '<abc.123@spam.example>',
    ip_address: '203.0.113.7',
    helo: 'mx.spam.example',
    country: 'FR',
    sender_domain: 'spam.example',
    mime_domain: 'spam.example',
    mime_user: 'promo',
    attachments: [{ name: 'invoice\u202Efdp.exe', type: 'application/octet-stream', size: 2048 }],
    urls: ['https://evil.example.com/login.php'],
    symbols: [
      {
        symbol: 'BAYES_SPAM',
        score: 5.1,
        description: 'Message probably spam',
        options: ['99.9%'],
        group: 'statistics',
        groups: ['statistics'],
      },
      {
        symbol: 'DKIM_REJECT',
        score: 1,
        description: 'DKIM verification failed',
        options: [],
        group: 'dkim',
        groups: ['dkim', 'policies'],
      },
      {
        symbol: 'MID_RHS_MATCH_FROM',
        score: -0.5,
        description: null,
        options: ['spam.example'],
        group: 'headers',
        groups: ['headers'],
      },
      {
        symbol: 'URIBL_BLACK',
        score: 7.5,
        description: 'Listed in URIBL black',
        options: ['evil.example.com'],
        group: 'rbl',
        groups: ['rbl'],
      },
    ],
    headers: [
      { name: 'From', value: 'promo@spam.example' },
      { name: 'Subject', value: 'You won a prize' },
    ],
    text_body: 'Hello,\nyou won!',
    html_body:
      '<p>Hello <b>winner</b></p><script>alert(1)</script><img src="https://cdn.example/logo.png" alt="Logo" onerror="alert(2)">' +
      '<a href="https://evil.example.com/claim">https://bank.example/claim</a>',
    body_truncated: false,
    raw_available: true,
    purged_at: null,
    delivery: null,
    hold_reasons: [],
    retry_uuids: [],
    learned: null,
    can_learn: true,
    ...overrides,
  };
}

/**
 * The day after Paris moved to summer time (the web tests' zone): "yesterday" lasted 23 hours and
 * the last 7 days begin at +01:00 and end at +02:00.
 */
export const DAY_AFTER_DST = new Date('2026-03-30T15:42:00+02:00');
