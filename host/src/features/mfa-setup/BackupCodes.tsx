import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Flex from 'antd/es/flex';
import { useThemeToken } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export const BACKUP_CODES_FILE = 'quarantine-console-backup-codes.txt';

/** Saves a text as a file through a Blob (no server round trip, nothing in a URL). */
export function downloadText(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Backup codes, shown ONCE (spec §4, DESIGN §7): copy to the clipboard, download as .txt, and an
 * "I saved them" confirmation before Done (or `doneLabel`: the sign-in's set-up step continues).
 */
export function BackupCodes({
  codes,
  account,
  onDone,
  doneLabel,
  busy = false,
}: {
  codes: readonly string[];
  account: string;
  onDone: () => void;
  doneLabel?: string;
  /** Done was clicked and what follows is under way (the sign-in). */
  busy?: boolean;
}) {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const [saved, setSaved] = useState(false);
  const text = codes.join('\n');

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      notify({ type: 'success', title: t('mfa.copied') });
    } catch {
      notify({ type: 'error', title: t('mfa.copy_failed') });
    }
  };

  return (
    <div data-testid="mfa-backup-codes-step">
      <Alert type="warning" showIcon title={t('mfa.codes_help')} style={{ marginBottom: 16 }} />
      <ol
        aria-label={t('mfa.codes_label')}
        data-testid="mfa-backup-codes"
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
          gap: '8px 24px',
          margin: '0 0 16px',
          padding: 16,
          listStylePosition: 'inside',
          background: token.colorFillQuaternary,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
          fontFamily: token.fontFamilyCode,
          fontSize: 15,
          letterSpacing: '0.05em',
        }}
      >
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <Flex gap={8} wrap style={{ marginBottom: 16 }}>
        <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy()} data-testid="mfa-codes-copy">
          {t('mfa.copy')}
        </Button>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          onClick={() => downloadText(`${t('mfa.file_header', { account })}\n\n${text}\n`, BACKUP_CODES_FILE)}
          data-testid="mfa-codes-download"
        >
          {t('mfa.download')}
        </Button>
      </Flex>
      <Flex justify="space-between" align="center" gap={16} wrap>
        <Checkbox checked={saved} onChange={(e) => setSaved(e.target.checked)} data-testid="mfa-codes-saved">
          {t('mfa.saved')}
        </Checkbox>
        <Button type="primary" disabled={!saved} loading={busy} onClick={onDone} data-testid="mfa-codes-done">
          {doneLabel ?? t('mfa.done')}
        </Button>
      </Flex>
    </div>
  );
}
