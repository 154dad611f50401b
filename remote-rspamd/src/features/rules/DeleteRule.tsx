import type { ButtonProps } from 'antd/es/button';
import Modal from 'antd/es/modal';
import { notify } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { ruleErrorText } from './rule-errors';
import type { RuleEndpoint } from './rules.api';
import { useDeleteRule } from './rules.queries';
import type { RuleKind } from './RuleTable';

/**
 * Delete one rule behind a confirmation naming it (the focus starts on Cancel: a deletion cannot
 * be undone); then spec §8 "Filter successfully deleted" and `onDeleted`.
 */
export function useConfirmDelete(kind: RuleKind, ep: RuleEndpoint, onDeleted?: () => void) {
  const { t } = useTranslation('rspamd');
  const [modal, contextHolder] = Modal.useModal();
  const remove = useDeleteRule(ep);
  const confirmDelete = (id: string, name: string) =>
    void modal.confirm({
      title: t(`kinds.${kind}.delete_title`, { name }),
      content: t(`kinds.${kind}.delete_body`),
      okText: t('list.delete'),
      okButtonProps: { danger: true, 'data-testid': 'rule-delete-confirm' } as ButtonProps,
      cancelText: t('form.cancel'),
      focusable: { autoFocusButton: 'cancel' },
      onOk: async () => {
        try {
          await remove.mutateAsync(id);
          notify({ type: 'success', title: t(`kinds.${kind}.deleted`), description: name });
          onDeleted?.();
        } catch (error) {
          notify({ type: 'error', title: t(`kinds.${kind}.delete_error`), description: ruleErrorText(error, t) });
        }
      },
    });
  return { confirmDelete, contextHolder, isPending: remove.isPending };
}
