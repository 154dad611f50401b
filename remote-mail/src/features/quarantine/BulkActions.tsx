import { CheckCircleOutlined, DeleteOutlined } from '@ant-design/icons';
import Button, { type ButtonProps } from 'antd/es/button';
import Flex from 'antd/es/flex';
import Alert from 'antd/es/alert';
import Modal from 'antd/es/modal';
import { errorMessageKey, errorMessageValues, readApiError } from '@qc/api-client';
import { notify, type Notice } from '@qc/ui-state';
import type { TFunction } from 'i18next';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { shownSubject } from '../email/bidi';
import { failureReason } from './failure-reason';
import { useBulkAction } from './quarantine.queries';
import type { BulkAction, BulkItemResult, QuarantineItem } from './quarantine.types';

/** A bulk action's problems, kept on the page until the user closes them (spec §8 notices last 5 s). */
export interface BulkOutcome {
  /** info: nothing failed, some releases are still under way. */
  type: 'info' | 'warning' | 'error';
  title: string;
  /** Each e-mail not fully done: its subject (null: none) and why, in words. */
  failures: { id: string; subject: string | null; reason: string }[];
}

/**
 * A bulk result: all done (a notice), or "3 released, 1 failed" with each failed or partly released
 * e-mail named by its subject (`subjects`: the selected rows', read before the list refreshes) and
 * why. A partial release (the relay refused some recipients) is a success with a warning, as on the
 * e-mail's own page. Releases still under way when the server answered (`releasing`) are named
 * too: the list, which refreshes while a row is releasing, and the history will show their outcome.
 */
export function bulkSummary(
  t: TFunction<'mail'>,
  action: BulkAction,
  results: BulkItemResult[],
  subjects: ReadonlyMap<string, string | null> = new Map(),
): { notice: Notice; outcome: null } | { notice: null; outcome: BulkOutcome } {
  const failed = results.filter((r) => r.status === 'failed').length;
  const partly = results.filter((r) => r.status === 'partially_released').length;
  const underWay = results.filter((r) => r.status === 'releasing').length;
  const done = results.length - failed - underWay;
  if (!failed && !partly && !underWay) {
    return { notice: { type: 'success', title: t(`quarantine.bulk.all_${action}`, { count: done }) }, outcome: null };
  }
  const reason = (r: BulkItemResult) =>
    r.status === 'failed'
      ? failureReason(t, r.code)
      : r.status === 'releasing'
        ? t('quarantine.bulk.releasing_item')
        : t('quarantine.bulk.partly_released_item');
  return {
    notice: null,
    outcome: {
      type: !failed && !partly ? 'info' : done || underWay ? 'warning' : 'error',
      title: underWay
        ? t('quarantine.bulk.in_progress', { count: underWay })
        : failed
          ? done
            ? t(`quarantine.bulk.partial_${action}`, { count: done, failed })
            : t(`quarantine.bulk.none_${action}`, { failed })
          : t('quarantine.bulk.partly_released', { count: done, partly }),
      failures: results
        .filter((r) => r.status !== 'released' && r.status !== 'deleted')
        .map((r) => ({ id: r.id, subject: subjects.get(r.id) ?? null, reason: reason(r) })),
    },
  };
}

/** The failures of the last bulk action, above the list: open until closed (or the next bulk action). */
export function BulkOutcomeAlert({ outcome, onClose }: { outcome: BulkOutcome; onClose: () => void }) {
  const { t } = useTranslation('mail');
  return (
    <Alert
      type={outcome.type}
      showIcon
      role="alert"
      title={outcome.title}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {outcome.failures.map((f) => (
            <li key={f.id} data-testid="quarantine-bulk-failure">
              {t('quarantine.bulk.failed_item', {
                subject: shownSubject(f.subject, t('no_subject')),
                reason: f.reason,
              })}
            </li>
          ))}
        </ul>
      }
      closable={{ onClose, 'aria-label': t('quarantine.bulk.close_result') }}
      style={{ marginBottom: 16 }}
      data-testid="quarantine-bulk-result"
    />
  );
}

/**
 * Release / Delete of the selected rows, each behind a confirmation naming the count. A full
 * success is a notice; failures go to `onOutcome` (null once an action fully succeeded).
 */
export function BulkActions({
  items,
  onDone,
  onOutcome,
}: {
  items: readonly Pick<QuarantineItem, 'id' | 'subject'>[];
  onDone: () => void;
  onOutcome: (outcome: BulkOutcome | null) => void;
}) {
  const { t } = useTranslation('mail');
  const [modal, contextHolder] = Modal.useModal();
  const bulk = useBulkAction();
  const ids = items.map((i) => i.id);
  const group = useRef<HTMLDivElement>(null);

  const run = async (action: BulkAction) => {
    const subjects = new Map(items.map((i) => [i.id, i.subject]));
    try {
      const { results } = await bulk.mutateAsync({ ids, action });
      const { notice, outcome } = bulkSummary(t, action, results, subjects);
      if (notice) notify(notice);
      onOutcome(outcome);
      onDone();
      // The buttons just pressed are now disabled (nothing is selected): the focus, which would
      // fall to the page's start, stays with this group.
      group.current?.focus();
    } catch (error) {
      notify({
        type: 'error',
        title: t(`quarantine.bulk.error_${action}`),
        description:
          readApiError(error).code === 'timeout'
            ? t('quarantine.bulk.timeout')
            : t(errorMessageKey(error), { ns: 'common', ...errorMessageValues(error) }),
      });
    }
  };

  const confirm = (action: BulkAction) =>
    void modal.confirm({
      title: t(`quarantine.bulk.confirm_${action}`, { count: ids.length }),
      content: t(`quarantine.bulk.confirm_${action}_body`, { count: ids.length }),
      okText: t(`quarantine.bulk.${action}`, { count: ids.length }),
      okButtonProps: { danger: action === 'delete', 'data-testid': 'quarantine-bulk-confirm' } as ButtonProps,
      cancelText: t('email.act.cancel'),
      // A deletion cannot be undone: Enter on the dialog must not do it (focus starts on Cancel).
      focusable: { autoFocusButton: action === 'delete' ? 'cancel' : 'ok' },
      onOk: () => run(action),
    });

  return (
    <Flex
      ref={group}
      tabIndex={-1}
      gap={8}
      wrap
      role="group"
      aria-label={t('quarantine.bulk.label')}
      style={{ outline: 'none' }}
      data-testid="quarantine-bulk"
    >
      {contextHolder}
      <Button
        icon={<CheckCircleOutlined aria-hidden />}
        disabled={!ids.length}
        loading={bulk.isPending && bulk.variables?.action === 'release'}
        onClick={() => confirm('release')}
        data-testid="quarantine-bulk-release"
      >
        {t('quarantine.bulk.release', { count: ids.length })}
      </Button>
      <Button
        danger
        icon={<DeleteOutlined aria-hidden />}
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
