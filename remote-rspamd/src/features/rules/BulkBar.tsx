import { CheckOutlined, DeleteOutlined, StopOutlined } from '@ant-design/icons';
import Button, { type ButtonProps } from 'antd/es/button';
import Flex from 'antd/es/flex';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { usePhoneLayout } from '@qc/ui';
import { notify, type Notice } from '@qc/ui-state';
import type { TFunction } from 'i18next';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ruleErrorText } from './rule-errors';
import type { RuleEndpoint } from './rules.api';
import { useBulkRules } from './rules.queries';
import type { RuleBulkResponse } from './rules.types';
import type { RuleKind } from './RuleTable';

type BulkAction = 'enable' | 'disable' | 'delete';

/** The notice of a bulk change: all done, or "2 deleted; 1 no longer existed" naming those. */
export function bulkNotice(
  t: TFunction<'rspamd'>,
  kind: RuleKind,
  action: BulkAction,
  response: RuleBulkResponse,
  names: ReadonlyMap<string, string>,
): Notice {
  const missing = response.results.filter((r) => r.status === 'not_found');
  const done = response.results.length - missing.length;
  const title = t(`kinds.${kind}.bulk_${action}`, { count: done });
  if (!missing.length) return { type: 'success', title };
  return {
    type: 'warning',
    title,
    description: t('bulk.not_found', {
      count: missing.length,
      names: missing.map((r) => names.get(r.id) ?? r.id).join(', '),
    }),
  };
}

/**
 * Enable, disable or delete the selected rules in one call (POST …/bulk/); the deletion behind a
 * confirmation naming the count. The buttons wait, disabled, until something is selected.
 */
export function BulkBar({
  kind,
  ep,
  rules,
  onDone,
  testPrefix,
}: {
  kind: RuleKind;
  ep: RuleEndpoint;
  rules: readonly { id: string; name: string }[];
  onDone: () => void;
  testPrefix: string;
}) {
  const { t } = useTranslation('rspamd');
  // Touch-sized on a phone: the small buttons were about 24 px high.
  const buttonSize = usePhoneLayout() ? 'middle' : 'small';
  const [modal, contextHolder] = Modal.useModal();
  const bulk = useBulkRules(ep);
  const group = useRef<HTMLDivElement>(null);
  const ids = rules.map((r) => r.id);

  const run = async (action: BulkAction) => {
    const names = new Map(rules.map((r) => [r.id, r.name]));
    try {
      const response = await bulk.mutateAsync({ ids, action });
      notify(bulkNotice(t, kind, action, response, names));
      onDone();
      // The buttons just pressed are disabled now: the focus stays with their group.
      group.current?.focus();
    } catch (error) {
      notify({ type: 'error', title: t(`bulk.error_${action}`), description: ruleErrorText(error, t) });
    }
  };

  const confirmDelete = () =>
    void modal.confirm({
      title: t(`kinds.${kind}.bulk_delete_title`, { count: ids.length }),
      content: t(`kinds.${kind}.delete_body`),
      okText: t('list.delete'),
      okButtonProps: { danger: true, 'data-testid': `${testPrefix}-bulk-confirm` } as ButtonProps,
      cancelText: t('form.cancel'),
      focusable: { autoFocusButton: 'cancel' },
      onOk: () => run('delete'),
    });

  const busy = (action: BulkAction) => bulk.isPending && bulk.variables?.action === action;
  return (
    <Flex
      ref={group}
      tabIndex={-1}
      gap={8}
      wrap
      align="center"
      role="group"
      aria-label={t('bulk.label')}
      style={{ outline: 'none', marginBottom: 12 }}
      data-testid={`${testPrefix}-bulk`}
    >
      {contextHolder}
      <Typography.Text type="secondary" aria-live="polite" data-testid={`${testPrefix}-selected`}>
        {t('bulk.selected', { count: ids.length })}
      </Typography.Text>
      <Button
        size={buttonSize}
        icon={<CheckOutlined aria-hidden />}
        disabled={!ids.length}
        loading={busy('enable')}
        onClick={() => void run('enable')}
        data-testid={`${testPrefix}-bulk-enable`}
      >
        {t('bulk.enable')}
      </Button>
      <Button
        size={buttonSize}
        icon={<StopOutlined aria-hidden />}
        disabled={!ids.length}
        loading={busy('disable')}
        onClick={() => void run('disable')}
        data-testid={`${testPrefix}-bulk-disable`}
      >
        {t('bulk.disable')}
      </Button>
      <Button
        size={buttonSize}
        danger
        icon={<DeleteOutlined aria-hidden />}
        disabled={!ids.length}
        loading={busy('delete')}
        onClick={confirmDelete}
        data-testid={`${testPrefix}-bulk-delete`}
      >
        {t('bulk.delete')}
      </Button>
    </Flex>
  );
}
