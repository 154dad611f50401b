import { CheckCircleOutlined, DeleteOutlined, DownloadOutlined, RedoOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button, { type ButtonProps } from 'antd/es/button';
import Flex from 'antd/es/flex';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { errorMessageKey, errorMessageValues, isHTTPError, readApiError } from '@qc/api-client';
import { formatDateTime, usePhoneLayout } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadRawEmail } from '../quarantine/quarantine.api';
import {
  HELD,
  RELEASE_FAILURE_CODES,
  type QuarantineDetail,
  type ReleaseDelivery,
  type ReleaseFailureCode,
} from '../quarantine/quarantine.types';
import { saveBlob } from './download-file';
import { useDeleteEmail, useFollowRelease, useReleaseEmail } from './email.queries';

/** A failed release that left (some of) the message quarantined, as shown with its Retry. */
interface ReleaseFailure {
  /** partly_refused: delivered to some recipients, refused for `rejected`, who are still held. */
  code: ReleaseFailureCode | 'last_attempt_failed' | 'partly_refused';
  response: string | null;
  rejected?: string[];
}

/** API codes with a text of their own (else the status decides: errors.* of `common`). */
const EXPLAINED = [
  'already_released',
  'release_in_progress',
  'email_deleted',
  'relay_not_configured',
  'invalid_envelope',
  'raw_purged',
  // The server may still have acted: the text says so (the common one is for loads).
  'timeout',
];

function readDelivery(error: unknown): ReleaseDelivery | null {
  if (!isHTTPError(error)) return null;
  const delivery = (error.data as { delivery?: unknown } | undefined)?.delivery;
  return delivery && typeof delivery === 'object' ? (delivery as ReleaseDelivery) : null;
}

/** What the server remembers of an earlier failed attempt (shown after a reload too). */
function serverFailure(email: QuarantineDetail): ReleaseFailure | null {
  const held = email.status === 'release_failed' || email.status === 'release_unknown';
  if (!held) return null;
  const outcome = email.delivery?.outcome ?? '';
  if (outcome === 'partially_released') {
    return { code: 'partly_refused', response: email.delivery?.response ?? null, rejected: email.delivery?.rejected };
  }
  const code: ReleaseFailure['code'] =
    email.status === 'release_unknown'
      ? 'release_unknown'
      : RELEASE_FAILURE_CODES.includes(outcome)
        ? (outcome as ReleaseFailureCode)
        : 'last_attempt_failed';
  return { code, response: email.delivery?.response ?? null };
}

/** When the caller's recipients last changed status (the release or deletion that settled them). */
function lastUpdate(email: QuarantineDetail): string {
  return email.recipients.reduce(
    (last, r) => (Date.parse(r.updated_at) > Date.parse(last) ? r.updated_at : last),
    email.received_at,
  );
}

const testId = (id: string) => ({ 'data-testid': id }) as ButtonProps;

/**
 * Download (.eml), Release and Delete, each release/delete behind a confirmation. The dialogs come
 * from Modal.useModal(): rendered in this tree, so themed by the remote's own ConfigProvider.
 */
export function EmailActions({
  email,
  onDeleted,
  extra,
}: {
  email: QuarantineDetail;
  onDeleted: () => void;
  /** More buttons in the same group (Not spam, Block sender, Learn). */
  extra?: ReactNode;
}) {
  const { t, i18n } = useTranslation('mail');
  const [modal, contextHolder] = Modal.useModal();
  const release = useReleaseEmail(email.id);
  const remove = useDeleteEmail(email.id);
  const [downloading, setDownloading] = useState(false);
  const [failure, setFailure] = useState<ReleaseFailure | null>(null);
  const phone = usePhoneLayout();
  const releasing = email.status === 'releasing';
  const { gaveUp } = useFollowRelease(email.id, releasing);
  // A release followed here that went through says so (one that failed shows its alert below).
  const wasReleasing = useRef(releasing);
  useEffect(() => {
    if (wasReleasing.current && email.status === 'released')
      notify({ type: 'success', title: t('email.act.released') });
    wasReleasing.current = email.status === 'releasing';
  }, [email.status, t]);

  const held = email.recipients.filter((r) => HELD.includes(r.status));
  const canRelease = email.raw_available && (HELD.includes(email.status) || held.length > 0);
  const canDelete = HELD.includes(email.status) || held.length > 0;
  const recipients = (held.length ? held : email.recipients).map((r) => r.address).join(', ');
  const shown = failure ?? serverFailure(email);
  // Nothing left to release or delete: the disabled buttons say why, and since when.
  const settled =
    !canRelease && !canDelete && (email.status === 'deleted' || email.status === 'released')
      ? t(`email.act.settled_${email.status}`, {
          date: formatDateTime(lastUpdate(email), i18n.resolvedLanguage ?? 'fr', 'medium'),
        })
      : null;
  // Only recipients whose last outcome is unknown: sending again needs the explicit confirmation.
  const onlyUnknown =
    held.length > 0 ? held.every((r) => r.status === 'release_unknown') : email.status === 'release_unknown';

  const doRelease = async (confirmResend: boolean) => {
    try {
      const result = await release.mutateAsync(confirmResend);
      setFailure(null);
      if (result.status === 'releasing') {
        // The relay has not answered in time: the detail, refetched, shows it under way and follows it.
        notify({ type: 'info', title: t('email.act.releasing_title'), description: t('email.act.releasing_body') });
        return;
      }
      wasReleasing.current = false; // its outcome is told here, not again when the detail refetches
      const rejected = result.delivery?.rejected ?? [];
      const partial = result.status === 'partially_released' || rejected.length > 0;
      const response = result.delivery?.response;
      notify({
        type: partial ? 'warning' : 'success',
        title: t(partial ? 'email.act.partially_released' : 'email.act.released'),
        description: partial
          ? t('email.act.relay_rejected', { recipients: rejected.join(', ') })
          : response
            ? t('email.act.relay_answer', { response })
            : undefined,
      });
    } catch (error) {
      const { status, code } = readApiError(error);
      let description: string;
      if (status === 502 && RELEASE_FAILURE_CODES.includes(code)) {
        // The relay said no, or could not be reached, or its answer was lost: still quarantined.
        const response = readDelivery(error)?.response ?? null;
        setFailure({ code: code as ReleaseFailureCode, response });
        description = t(`email.act.${code}`);
        if (response) description += ` ${t('email.act.relay_answer', { response })}`;
      } else if (code === 'confirm_resend_required') {
        setFailure({ code: 'release_unknown', response: null });
        description = t('email.act.release_unknown');
      } else if (EXPLAINED.includes(code)) {
        setFailure(null);
        description = t(`email.act.${code}`);
      } else {
        description = t(errorMessageKey(error), { ns: 'common', ...errorMessageValues(error) });
      }
      notify({ type: 'error', title: t('email.act.release_error'), description });
    }
  };

  const confirmRelease = () =>
    void modal.confirm({
      title: t('email.act.release_confirm_title'),
      content: t('email.act.release_confirm_body', { recipients }),
      icon: <CheckCircleOutlined aria-hidden />,
      okText: t('email.act.release'),
      cancelText: t('email.act.cancel'),
      okButtonProps: testId('email-release-confirm'),
      cancelButtonProps: testId('email-confirm-cancel'),
      onOk: () => doRelease(false),
    });

  const confirmResend = () =>
    void modal.confirm({
      title: t('email.act.resend_confirm_title'),
      content: t('email.act.resend_confirm_body'),
      okText: t('email.act.resend'),
      cancelText: t('email.act.cancel'),
      okButtonProps: { ...testId('email-resend-confirm'), danger: true },
      focusable: { autoFocusButton: 'cancel' }, // not undone by Enter: focus starts on Cancel
      cancelButtonProps: testId('email-confirm-cancel'),
      onOk: () => doRelease(true),
    });

  // Right after a release the user confirmed here, Retry sends again at once; a failure found on
  // opening the page (an earlier attempt, maybe someone else's) asks first, as Release does.
  const retryRelease = () => {
    if (shown?.code === 'release_unknown') confirmResend();
    else if (failure) void doRelease(false);
    else confirmRelease();
  };

  const retryButton = (
    <Button
      size="small"
      icon={<RedoOutlined aria-hidden />}
      onClick={retryRelease}
      loading={release.isPending}
      data-testid="email-release-retry"
    >
      {t('email.act.release_retry')}
    </Button>
  );

  const confirmDelete = () =>
    void modal.confirm({
      title: t('email.act.delete_confirm_title'),
      content: t('email.act.delete_confirm_body'),
      icon: <DeleteOutlined aria-hidden />,
      okText: t('email.act.delete'),
      cancelText: t('email.act.cancel'),
      okButtonProps: { ...testId('email-delete-confirm'), danger: true },
      focusable: { autoFocusButton: 'cancel' }, // not undone by Enter: focus starts on Cancel
      cancelButtonProps: testId('email-confirm-cancel'),
      onOk: async () => {
        try {
          await remove.mutateAsync();
          notify({ type: 'success', title: t('email.act.deleted') });
          onDeleted();
        } catch (error) {
          const { code } = readApiError(error);
          notify({
            type: 'error',
            title: t('email.act.delete_error'),
            description: EXPLAINED.includes(code)
              ? t(`email.act.${code}`)
              : t(errorMessageKey(error), { ns: 'common', ...errorMessageValues(error) }),
          });
        }
      },
    });

  const download = async () => {
    setDownloading(true);
    try {
      const { blob, filename } = await downloadRawEmail(email.id);
      saveBlob(blob, filename, 'message/rfc822');
    } catch (error) {
      const { code } = readApiError(error);
      notify({
        type: 'error',
        title: t('email.act.download_error'),
        description:
          code === 'raw_purged'
            ? t('email.act.raw_purged')
            : t(errorMessageKey(error), { ns: 'common', ...errorMessageValues(error) }),
      });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      {contextHolder}
      <Flex gap={8} wrap role="group" aria-label={t('email.act.label')}>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          onClick={() => void download()}
          loading={downloading}
          disabled={!email.raw_available}
          data-testid="email-download"
        >
          {t('email.act.download')}
        </Button>
        <Button
          type="primary"
          icon={<CheckCircleOutlined aria-hidden />}
          onClick={onlyUnknown ? confirmResend : confirmRelease}
          loading={release.isPending}
          disabled={!canRelease}
          data-testid="email-release"
        >
          {t('email.act.release')}
        </Button>
        <Button
          danger
          icon={<DeleteOutlined aria-hidden />}
          onClick={confirmDelete}
          loading={remove.isPending}
          disabled={!canDelete}
          data-testid="email-delete"
        >
          {t('email.act.delete')}
        </Button>
        {extra}
      </Flex>
      {settled ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }} data-testid="email-settled">
          {settled}
        </Typography.Paragraph>
      ) : null}
      {releasing ? (
        <Alert
          type={gaveUp ? 'warning' : 'info'}
          showIcon
          role="status"
          title={t('email.act.releasing_title')}
          description={t(gaveUp ? 'email.act.releasing_gave_up' : 'email.act.releasing_body')}
          style={{ marginTop: 16 }}
          data-testid="email-release-progress"
        />
      ) : null}
      {shown ? (
        <Alert
          type={shown.code === 'release_unknown' || shown.code === 'partly_refused' ? 'warning' : 'error'}
          showIcon
          role="alert"
          title={t(shown.code === 'partly_refused' ? 'email.act.partially_released' : 'email.act.release_error')}
          description={
            <>
              <div>
                {shown.code === 'partly_refused'
                  ? t('email.act.partly_refused', { recipients: (shown.rejected ?? []).join(', ') })
                  : t(`email.act.${shown.code}`)}
              </div>
              {shown.response ? (
                <Typography.Text code style={{ wordBreak: 'break-word' }} data-testid="email-release-response">
                  {shown.response}
                </Typography.Text>
              ) : null}
              {phone ? <div style={{ marginTop: 8 }}>{retryButton}</div> : null}
            </>
          }
          // On a phone the button goes under the text: beside it, it left the text one word wide.
          {...(phone ? {} : { action: retryButton })}
          style={{ marginTop: 16 }}
          data-testid="email-release-error"
        />
      ) : null}
    </>
  );
}
