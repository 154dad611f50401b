import { DownloadOutlined, WarningOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { errorMessageKey, errorMessageValues, readApiError } from '@qc/api-client';
import { TableEmptyText, usePhoneLayout, VisuallyHidden } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../quarantine/quarantine.format';
import type { MailAttachment } from '../quarantine/quarantine.types';
import { revealBidi } from './bidi';
import { saveBlob } from './download-file';
import { downloadAttachment } from './email.api';

type Row = MailAttachment & { key: number };

/** A declared type the bytes contradict (a PDF sent as image/png, an executable as text/plain). */
export function typeMismatch(a: MailAttachment): boolean {
  if (!a.detected_type) return false;
  const base = (v: string) => v.split(';')[0]!.trim().toLowerCase();
  return base(a.detected_type) !== base(a.type);
}

/**
 * Spec §3 attachments (issue 23): name (text, direction tricks revealed), type as declared and as
 * the bytes say, size, SHA-256, and a download of each (saved as a file, never opened or rendered).
 */
export function Attachments({
  emailId,
  attachments,
  rawAvailable,
}: {
  emailId: string;
  attachments: MailAttachment[];
  rawAvailable: boolean;
}) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const phone = usePhoneLayout();
  const [busy, setBusy] = useState<number | null>(null);

  const download = async (a: MailAttachment) => {
    if (a.index === undefined) return;
    setBusy(a.index);
    try {
      const { blob, filename } = await downloadAttachment(emailId, a.index);
      saveBlob(blob, filename);
    } catch (error) {
      const { code } = readApiError(error);
      notify({
        type: 'error',
        title: t('email.attachments.download_error'),
        description:
          code === 'raw_purged'
            ? t('email.act.raw_purged')
            : t(errorMessageKey(error), { ns: 'common', ...errorMessageValues(error) }),
      });
    } finally {
      setBusy(null);
    }
  };

  const name = (v: string) => (
    <span style={{ wordBreak: 'break-word' }} data-testid="email-attachment-name">
      {v ? revealBidi(v) : t('email.attachments.unnamed')}
    </span>
  );
  const types = (a: MailAttachment) => (
    <Flex vertical gap={2} data-testid="email-attachment-types">
      <span>
        <Typography.Text type="secondary">{t('email.attachments.declared')}</Typography.Text> {revealBidi(a.type)}
      </span>
      {a.detected_type !== undefined ? (
        <span>
          <Typography.Text type="secondary">{t('email.attachments.detected')}</Typography.Text>{' '}
          {a.detected_type ?? t('email.attachments.unknown_type')}
          {typeMismatch(a) ? (
            <Tag color="warning" icon={<WarningOutlined aria-hidden />} style={{ marginInlineStart: 6 }}>
              {t('email.attachments.mismatch')}
            </Tag>
          ) : null}
        </span>
      ) : null}
    </Flex>
  );
  const hash = (a: MailAttachment) =>
    a.sha256 ? (
      <Typography.Text
        code
        copyable={{ text: a.sha256 }}
        style={{ fontSize: 12 }}
        data-testid="email-attachment-sha256"
      >
        {/* In groups of 16 that wrap as groups; the copy takes the whole hash. */}
        <span style={{ wordBreak: 'normal', overflowWrap: 'normal' }}>
          {(a.sha256.match(/.{1,16}/g) ?? []).map((group, i) => (
            <Fragment key={i}>
              {i > 0 ? <wbr /> : null}
              {group}
            </Fragment>
          ))}
        </span>
      </Typography.Text>
    ) : (
      <Typography.Text type="secondary">{t('none')}</Typography.Text>
    );
  const action = (a: MailAttachment) => (
    <Button
      size="small"
      icon={<DownloadOutlined aria-hidden />}
      onClick={() => void download(a)}
      loading={busy === a.index}
      disabled={!rawAvailable || a.index === undefined}
      aria-label={t('email.attachments.download_named', { name: a.name || t('email.attachments.unnamed') })}
      data-testid="email-attachment-download"
    >
      {phone ? t('email.attachments.download') : null}
    </Button>
  );

  return (
    <>
      <Table<Row>
        size="small"
        dataSource={attachments.map((a, key) => ({ ...a, key }))}
        pagination={false}
        locale={{ emptyText: <TableEmptyText>{t('email.attachments.empty')}</TableEmptyText> }}
        columns={
          phone
            ? [
                {
                  key: 'attachment',
                  title: t('email.attachments.attachment'),
                  render: (_, a) => (
                    <Flex vertical gap={4}>
                      {name(a.name)}
                      {types(a)}
                      <Typography.Text type="secondary">{formatSize(a.size, lang)}</Typography.Text>
                      {hash(a)}
                      <div>{action(a)}</div>
                    </Flex>
                  ),
                },
              ]
            : [
                { key: 'name', title: t('email.attachments.name'), dataIndex: 'name', render: name },
                { key: 'type', title: t('email.attachments.type'), render: (_, a) => types(a) },
                {
                  key: 'size',
                  title: t('email.attachments.size'),
                  dataIndex: 'size',
                  align: 'right',
                  render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatSize(v, lang)}</span>,
                },
                { key: 'sha256', title: t('email.attachments.sha256'), render: (_, a) => hash(a), width: 170 },
                {
                  key: 'download',
                  title: <VisuallyHidden>{t('email.attachments.download')}</VisuallyHidden>,
                  render: (_, a) => action(a),
                  width: 48,
                },
              ]
        }
        data-testid="email-attachments"
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }}>
        {t('email.attachments.help')}
      </Typography.Paragraph>
    </>
  );
}
