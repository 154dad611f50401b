import Descriptions, { type DescriptionsProps } from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasRole } from '@qc/auth';
import { formatDateTime, usePhoneLayout, useThemeToken } from '@qc/ui';
import { Link } from 'react-router-dom';
import {
  ACTION_COLORS,
  formatScore,
  formatSize,
  isKnownAction,
  SCORE_COLORS,
  scoreBand,
  STATUS_COLORS,
} from '../quarantine/quarantine.format';
import type { QuarantineDetail, QuarantineStatus } from '../quarantine/quarantine.types';
import { revealBidi, shownSubject } from './bidi';
import { HomographNote } from './HomographNote';
import { Token, TOKEN_STYLE } from './tokens';

/** An address the display name itself shows ("support@bank.example" <x@evil.example>), when it is not the sender's. */
export function spoofedAddress(name: string | null, address: string): string | null {
  const shown = name ? /[^\s<>"'@]+@[^\s<>"'@]+\.[^\s<>"'@]+/.exec(name)?.[0] : undefined;
  return shown && shown.toLowerCase() !== address.trim().toLowerCase() ? shown : null;
}

/**
 * The sender as a reviewer needs it: the display name beside the address (phishing often lies in
 * the name alone), each isolated (<bdi>) so a right-to-left name cannot reorder the address, with
 * direction tricks revealed, and a warning when the name shows another address.
 */
export function SenderLine({ address, name }: { address: string; name: string | null }) {
  const { t } = useTranslation('mail');
  if (!name)
    return (
      <span data-testid="email-sender-line">
        {t('email.from', { sender: revealBidi(address) })} <HomographNote address={address} />
      </span>
    );
  const spoofed = spoofedAddress(name, address);
  return (
    <span data-testid="email-sender-line">
      {t('email.from_prefix')} <bdi data-testid="email-sender-name">{revealBidi(name)}</bdi>{' '}
      <bdi>&lt;{revealBidi(address)}&gt;</bdi> <HomographNote address={address} />
      {spoofed ? (
        <Tag color="warning" style={{ marginInlineStart: 8 }} data-testid="email-sender-spoofed">
          {t('email.name_shows_other_address')}
        </Tag>
      ) : null}
    </span>
  );
}

/** Every e-mail field of spec §3, rendered as text (DESIGN §7: headers are attacker-controlled). */
export function EmailFields({ email }: { email: QuarantineDetail }) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const phone = usePhoneLayout();
  // Admins follow the uuid to Haraka's lines of this mail (remote-haraka, issue 19); others see it as text.
  const opensHaraka = useHasRole('admin');
  const codeFont = useThemeToken().fontFamilyCode;
  const none = t('none');
  const text = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? none : revealBidi(v));
  // Addresses, ids and domains wrap only at their separators, never mid-token (tokens.tsx).
  const address = (v: string | null | undefined) =>
    v === null || v === undefined || v === '' ? none : <Token text={revealBidi(v)} />;
  // A sender's domain that may imitate another gets its other form and a warning after it.
  const sender = (v: string) => (
    <>
      {address(v)} <HomographNote address={v} />
    </>
  );
  const code = (v: string | null | undefined, copy = false) =>
    v ? (
      <Typography.Text code copyable={copy ? { text: v } : false} style={{ maxWidth: '100%' }}>
        <Token text={revealBidi(v)} />
      </Typography.Text>
    ) : (
      none
    );
  // A sender's retries matched to this copy have their own uuids (the queue ids they were given).
  const uuidOrLink = (uuid: string, testId: string) =>
    opensHaraka ? (
      <Link to={`/haraka/logs/${encodeURIComponent(uuid)}`} data-testid={testId}>
        {/* In the link's colour (a code box hid that it is one, and split over two lines); its
            hyphens are break points already, no <wbr> in a link's accessible name. */}
        <span style={{ ...TOKEN_STYLE, fontFamily: codeFont }}>{uuid}</span>
      </Link>
    ) : (
      code(uuid)
    );
  const date = (v: string | null) => (v ? <time dateTime={v}>{formatDateTime(v, lang, 'medium')}</time> : none);
  const status = (s: QuarantineStatus) => (
    <Tag color={STATUS_COLORS[s] ?? 'default'}>{t(`statuses.${s}`, { defaultValue: s })}</Tag>
  );

  const hidden = Math.max(0, email.recipient_count - email.recipients.length);
  const delivery = email.delivery;

  let score: ReactNode = none;
  if (email.score !== null && email.score !== undefined) {
    const band = scoreBand(email.score);
    const label = t('score_label', { score: formatScore(email.score, lang), band: t(`score_bands.${band}`) });
    score = (
      <Tag color={SCORE_COLORS[band]} title={label} aria-label={label} data-band={band}>
        {formatScore(email.score, lang)}
      </Tag>
    );
  }

  const items: DescriptionsProps['items'] = [
    { key: 'received_at', label: t('email.fields.received_at'), children: date(email.received_at) },
    { key: 'date', label: t('email.fields.date'), children: date(email.date) },
    {
      key: 'sender',
      label: t('email.fields.sender'),
      children: email.sender_name ? (
        <Flex vertical gap={2}>
          <bdi data-testid="email-sender-display-name">{revealBidi(email.sender_name)}</bdi>
          {sender(email.sender)}
        </Flex>
      ) : (
        sender(email.sender)
      ),
    },
    { key: 'envelope_from', label: t('email.fields.envelope_from'), children: sender(email.envelope_from) },
    {
      key: 'recipients',
      label: t('email.fields.recipients'),
      children: (
        <Flex vertical gap={4} data-testid="email-recipients">
          {email.recipients.map((r) => (
            <span key={r.address}>
              <Token text={r.address} /> {status(r.status)}
            </span>
          ))}
          {email.recipients_truncated || hidden > 0 ? (
            <Typography.Text type="secondary">{t('email.more_recipients', { count: hidden })}</Typography.Text>
          ) : null}
        </Flex>
      ),
    },
    {
      key: 'subject',
      label: t('email.fields.subject'),
      children: shownSubject(email.subject, t('no_subject')),
      span: 'filled',
    },
    { key: 'score', label: t('email.fields.score'), children: score },
    {
      key: 'required_score',
      label: t('email.fields.required_score'),
      children: email.required_score === null ? none : formatScore(email.required_score, lang),
    },
    {
      key: 'action',
      label: t('email.fields.action'),
      children: isKnownAction(email.action) ? (
        <Tag color={ACTION_COLORS[email.action]}>{t(`actions.${email.action}`)}</Tag>
      ) : (
        text(email.action)
      ),
    },
    { key: 'status', label: t('email.fields.status'), children: status(email.status) },
    { key: 'dkim', label: t('email.fields.dkim'), children: text(email.dkim) },
    { key: 'spf', label: t('email.fields.spf'), children: text(email.spf) },
    { key: 'size', label: t('email.fields.size'), children: formatSize(email.size, lang) },
    { key: 'message_id', label: t('email.fields.message_id'), children: code(email.message_id, true) },
    { key: 'ip_address', label: t('email.fields.ip_address'), children: code(email.ip_address) },
    { key: 'helo', label: t('email.fields.helo'), children: address(email.helo) },
    { key: 'country', label: t('email.fields.country'), children: text(email.country) },
    { key: 'sender_domain', label: t('email.fields.sender_domain'), children: address(email.sender_domain) },
    { key: 'mime_domain', label: t('email.fields.mime_domain'), children: address(email.mime_domain) },
    { key: 'mime_user', label: t('email.fields.mime_user'), children: text(email.mime_user) },
    {
      key: 'uuid',
      label: t('email.fields.uuid'),
      children: email.uuid ? (
        <Flex vertical gap={4}>
          {uuidOrLink(email.uuid, 'email-haraka-logs')}
          {email.retry_uuids.map((uuid) => (
            <span key={uuid}>
              {t('email.retry_uuid')} {uuidOrLink(uuid, 'email-haraka-retry-logs')}
            </span>
          ))}
        </Flex>
      ) : (
        none
      ),
    },
    {
      key: 'last_delivery',
      label: t('email.fields.last_delivery'),
      span: 'filled',
      children: delivery ? (
        <Flex vertical gap={4}>
          <span>
            {t('email.last_delivery', {
              outcome: t(`delivery_outcomes.${delivery.outcome}`, { defaultValue: delivery.outcome }),
              at: formatDateTime(delivery.finished_at ?? delivery.started_at, lang, 'medium'),
              by: delivery.by,
            })}
          </span>
          {delivery.response ? <Typography.Text code>{delivery.response}</Typography.Text> : null}
        </Flex>
      ) : (
        none
      ),
    },
  ];

  return (
    <Descriptions
      bordered
      size="small"
      // On a phone each label sits above its value, which then has the card's whole width.
      layout={phone ? 'vertical' : 'horizontal'}
      column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 3, xxl: 3 }}
      items={items.map((item) => ({
        ...item,
        children: <span data-testid={`email-field-${String(item.key)}`}>{item.children}</span>,
      }))}
      data-testid="email-fields"
    />
  );
}
