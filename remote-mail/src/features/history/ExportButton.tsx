import { DownloadOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { api, errorMessageKey, errorMessageValues, LONG_ACTION_TIMEOUT_MS } from '@qc/api-client';
import { notify } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../email/download-file';
import { suggestedFilename } from '../quarantine/quarantine.api';
import type { HistoryQueryParams } from './history.filters';

/**
 * GET /api/history/export/ with the list's filters (never its cursor or page size) as a Blob: the
 * api client sends the token in its header, never in a URL (DESIGN §7).
 */
export async function downloadHistoryCsv(query: HistoryQueryParams): Promise<{ blob: Blob; filename: string }> {
  const searchParams = Object.fromEntries(
    Object.entries(query).filter(([k, v]) => v !== undefined && v !== '' && k !== 'cursor' && k !== 'page_size'),
  );
  const response = await api.get('history/export/', {
    searchParams,
    timeout: LONG_ACTION_TIMEOUT_MS,
    headers: { Accept: 'text/csv, */*' },
  });
  const suggested = suggestedFilename(response.headers.get('content-disposition') ?? '');
  const filename = /^[\w.-]+\.csv$/.test(suggested) ? suggested : 'history.csv';
  return { blob: await response.blob(), filename };
}

/** "Export CSV": the rows of the current filters, every page, as a file. */
export function HistoryExportButton({ query }: { query: HistoryQueryParams }) {
  const { t } = useTranslation('mail');
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { blob, filename } = await downloadHistoryCsv(query);
      saveBlob(blob, filename, 'text/csv;charset=utf-8');
    } catch (error) {
      notify({
        type: 'error',
        title: t('history.export_error'),
        description: t(errorMessageKey(error), { ns: 'common', ...errorMessageValues(error) }),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined aria-hidden />} loading={busy} onClick={run} data-testid="history-export">
      {t('history.export')}
    </Button>
  );
}
