import Flex from 'antd/es/flex';
import type { ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import { formatDateTime, usePhoneLayout } from '@qc/ui';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { HarakaLogLine, LogSeverity } from './logs.types';
import { SeverityTag } from './SeverityTag';
import { useControlChars } from './useControlChars';

export const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 } as const;
export const WRAP = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', wordBreak: 'break-word' } as const;

/**
 * The columns of a table of log lines, each with its host (spec §3). The search links a line's uuid to
 * that uuid's page; the page of one uuid shows the uuid as text (a connection's lines carry its
 * transactions' uuids). On a phone each line is one stacked cell, like the other remotes' lists.
 */
export function useLogColumns({ search }: { search: boolean }): ColumnsType<HarakaLogLine> {
  const { t, i18n } = useTranslation('haraka');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const phone = usePhoneLayout();
  // Host, origin and message as received, their control characters shown escaped.
  const shown = useControlChars();
  const none = t('none');
  const dateCell = (ts: string) => (
    <time dateTime={ts} style={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatDateTime(ts, lang, 'medium')}
    </time>
  );
  const uuidCell = (uuid: string | null) =>
    !uuid ? (
      none
    ) : search ? (
      <Link to={`/haraka/logs/${encodeURIComponent(uuid)}`} style={{ ...MONO, ...WRAP }} data-testid="log-uuid-link">
        {uuid}
      </Link>
    ) : (
      <span style={{ ...MONO, ...WRAP }}>{uuid}</span>
    );
  const text = (v: string | null) => (v ? <span style={WRAP}>{shown(v)}</span> : none);
  const message = (m: string) => <span style={{ ...MONO, ...WRAP }}>{shown(m)}</span>;

  if (phone)
    return [
      {
        key: 'line',
        title: t('logs.columns.line'),
        render: (_: unknown, l) => (
          <Flex vertical gap={4} style={{ minWidth: 0 }} data-testid="log-stacked">
            <Flex gap={8} align="center" wrap>
              <SeverityTag severity={l.severity} />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {dateCell(l.ts)}
              </Typography.Text>
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: 12, ...WRAP }}>
              {(search ? [l.hostname, l.origin] : [l.hostname, l.uuid, l.origin])
                .filter((v): v is string => !!v)
                .map((v, i) => (
                  <Fragment key={i}>
                    {i > 0 ? ' · ' : null}
                    {shown(v)}
                  </Fragment>
                ))}
            </Typography.Text>
            {message(l.message)}
            {search && l.uuid ? uuidCell(l.uuid) : null}
          </Flex>
        ),
      },
    ];
  return [
    { key: 'ts', title: t('logs.columns.date'), dataIndex: 'ts', width: 180, render: dateCell },
    {
      key: 'severity',
      title: t('logs.columns.severity'),
      dataIndex: 'severity',
      width: 100,
      render: (s: LogSeverity) => <SeverityTag severity={s} />,
    },
    // The host with the line's origin under it: a column of its own left the message a third of the row.
    {
      key: 'hostname',
      title: t('logs.columns.source'),
      width: 170,
      render: (_: unknown, l) => (
        <Flex vertical style={{ minWidth: 0 }}>
          {text(l.hostname)}
          {l.origin ? (
            <Typography.Text type="secondary" style={{ fontSize: 12, ...WRAP }} data-testid="log-origin">
              {shown(l.origin)}
            </Typography.Text>
          ) : null}
        </Flex>
      ),
    },
    { key: 'uuid', title: t('logs.columns.uuid'), dataIndex: 'uuid', width: 190, render: uuidCell },
    { key: 'message', title: t('logs.columns.message'), dataIndex: 'message', render: message },
  ];
}
