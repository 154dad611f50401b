import { CheckCircleOutlined, DeleteOutlined } from '@ant-design/icons';
import Button, { type ButtonProps } from 'antd/es/button';
import Flex from 'antd/es/flex';
import Modal from 'antd/es/modal';
import { errorMessageKey } from '@qc/api-client';
import { notify } from '@qc/ui-state';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useBulkAction } from './quarantine.queries';
import type { BulkAction, BulkItemResult } from './quarantine.types';

/** Why one id failed, in words (the single-item texts where they exist, else the code itself). */
function reason(t: TFunction<'mail'>, code: string | undefined): string {
  if (!code) return t('quarantine.bulk.unknown_reason');
  if (code === 'email_not_found') return t('email.not_found');
  return t(`email.act.${code}`, { defaultValue: code });
}

/** The notice summing up a bulk result: all succeeded, or "3 released, 1 failed" with the reasons. */
export function bulkSummary(t: TFunction<'mail'>, action: BulkAction, results: BulkItemResult[]) {
  const failed = results.filter((r) => r.status === 'failed');
  const done = results.length - failed.length;
  if (!failed.length) return { type: 'success' as const, title: t(`quarantine.bulk.all_${action}`, { count: done }) };
  return {
    type: done ? ('warning' as const) : ('error' as const),
    title: t(`quarantine.bulk.partial_${action}`, { done, failed: failed.length }),
    description: failed.map((r) => `${r.id}: ${reason(t, r.code)}`).join('\n'),
  };
}

/** Release / Delete of the selected rows, each behind a confirmation naming the count. */
export function BulkActions({ ids, onDone }: { ids: string[]; onDone: () => void }) {
  const { t } = useTranslation('mail');
  const [modal, contextHolder] = Modal.useModal();
  const bulk = useBulkAction();

  const run = async (action: BulkAction) => {
    try {
      const { results } = await bulk.mutateAsync({ ids, action });
      notify(bulkSummary(t, action, results));
      onDone();
    } catch (error) {
      notify({
        type: 'error',
        title: t(`quarantine.bulk.error_${action}`),
        description: t(errorMessageKey(error), { ns: 'common' }),
      });
    }
  };

  const confirm = (action: BulkAction) =>
    void modal.confirm({
      title: t(`quarantine.bulk.confirm_${action}`, { count: ids.length }),
      content: t(`quarantine.bulk.confirm_${action}_body`),
      okText: t(`quarantine.bulk.${action}`, { count: ids.length }),
      okButtonProps: { danger: action === 'delete', 'data-testid': 'quarantine-bulk-confirm' } as ButtonProps,
      cancelText: t('email.act.cancel'),
      onOk: () => run(action),
    });

  return (
    <Flex gap={8} wrap role="group" aria-label={t('quarantine.bulk.label')}>
      {contextHolder}
      <Button
        icon={<CheckCircleOutlined />}
        disabled={!ids.length}
        loading={bulk.isPending && bulk.variables?.action === 'release'}
        onClick={() => confirm('release')}
        data-testid="quarantine-bulk-release"
      >
        {t('quarantine.bulk.release', { count: ids.length })}
      </Button>
      <Button
        danger
        icon={<DeleteOutlined />}
        disabled={!ids.length}
        loading={bulk.isPending && bulk.variables?.action === 'delete'}
        onClick={() => confirm('delete')}
        data-testid="quarantine-bulk-delete"
      >
        {t('quarantine.bulk.delete', { count: ids.length })}
      </Button>
    </Flex>
  );
}
