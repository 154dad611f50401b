import { CheckCircleFilled, CloseCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Typography from 'antd/es/typography';
import { errorMessageKey, rateLimitedMessage, readApiError } from '@qc/api-client';
import { useSession } from '@qc/auth';
import type { NotSpamResponse, StepOutcome } from '@qc/contracts';
import { useThemeToken } from '@qc/ui';
import { notify, type Notice } from '@qc/ui-state';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bulkSummary } from '../quarantine/BulkActions';
import { failureReason } from '../quarantine/failure-reason';
import { useBulkAction } from '../quarantine/quarantine.queries';
import { revealBidi } from './bidi';
import { useNotSpam } from './learning.queries';
import { LEARN_CODES } from './useLearnAction';

/** The e-mail "Not spam" is about: its id and its displayed sender (the one whitelisted). */
export interface NotSpamTarget {
  id: string;
  sender: string;
  /** False when the caller's role may not learn (the detail's can_learn); unknown from a list row. */
  canLearn?: boolean;
}

type Allow = 'me' | 'domain' | 'none';

/** Refusals the console's own words say whole: the api's English message adds nothing to them. */
const SAID_WHOLE = ['learning_not_allowed', 'learn_in_progress', 'rate_limited'];

/** Why a step failed, in words: a learn's codes, a budget's wait, a whitelist conflict, else a release's. */
function stepReason(t: TFunction<'mail'>, code: string, retryAfter: number | null): string {
  if (LEARN_CODES.includes(code)) return t(`learn.${code}`);
  // The same words as a refused call's: "Too many requests. Try again in 5 minutes."
  if (code === 'rate_limited') {
    const [key, values] = rateLimitedMessage(retryAfter);
    return t(key, { ns: 'common', ...values });
  }
  if (code === 'list_conflict') return t('not_spam.list_conflict');
  return failureReason(t, code);
}

function StepLine({ label, step, ok }: { label: string; step: StepOutcome; ok: string }) {
  const { t } = useTranslation('mail');
  const token = useThemeToken();
  // A learn the caller's role may not make is no failure: said as not done, like a step not asked for.
  const notAllowed = step.code === 'learning_not_allowed';
  const icon =
    step.skipped || notAllowed ? (
      <MinusCircleOutlined aria-hidden style={{ color: token.colorTextSecondary }} />
    ) : step.ok ? (
      <CheckCircleFilled aria-hidden style={{ color: token.colorSuccess }} />
    ) : (
      <CloseCircleFilled aria-hidden style={{ color: token.colorError }} />
    );
  const text = step.skipped
    ? t('not_spam.skipped')
    : step.ok
      ? ok
      : t(notAllowed ? 'not_spam.not_allowed' : 'not_spam.failed');
  return (
    <li style={{ marginBottom: 8 }} data-testid="not-spam-step" data-ok={step.skipped ? 'skipped' : String(step.ok)}>
      <Flex gap={8} align="flex-start">
        {icon}
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong>{label}</Typography.Text>
          {t('not_spam.sep')}
          {text}
          {!step.ok && !step.skipped ? (
            <div>
              <Typography.Text type="secondary" style={{ wordBreak: 'break-word' }}>
                {step.code ? stepReason(t, step.code, step.retry_after) : null}
                {step.message && !SAID_WHOLE.includes(step.code ?? '') ? ` ${step.message}` : null}
              </Typography.Text>
            </div>
          ) : null}
        </div>
      </Flex>
    </li>
  );
}

/** The outcome of each step, then the other mails from the same sender with their bulk release. */
function Result({ result }: { result: NotSpamResponse }) {
  const { t } = useTranslation('mail');
  const bulk = useBulkAction();
  const [others, setOthers] = useState<Notice | null>(null);
  const { release, learn, whitelist } = result;
  const relay = release.delivery?.response;
  // Under way past the server's time to answer: the e-mail's page and the list follow it.
  const releaseOk =
    release.code === 'release_in_progress'
      ? t('not_spam.release_in_progress')
      : relay
        ? `${t('not_spam.release_ok')}. ${t('email.act.relay_answer', { response: relay })}`
        : t('not_spam.release_ok');
  const whitelisted = whitelist.entry?.address_unicode ?? whitelist.entry?.address ?? result.others.sender;

  const releaseOthers = async () => {
    let notice: Notice;
    try {
      const { results } = await bulk.mutateAsync({ ids: result.others.ids, action: 'release' });
      const summary = bulkSummary(t, 'release', results);
      notice = summary.notice ?? { type: summary.outcome.type, title: summary.outcome.title };
    } catch (error) {
      notice = {
        type: 'error',
        title: t('email.act.release_error'),
        description: t(errorMessageKey(error), { ns: 'common' }),
      };
    }
    setOthers(notice);
  };

  return (
    <Flex vertical gap={12} data-testid="not-spam-result">
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('not_spam.result_title')}>
        <StepLine label={t('not_spam.steps.release')} step={release} ok={releaseOk} />
        <StepLine
          label={t('not_spam.steps.learn')}
          step={learn}
          ok={t(learn.already ? 'not_spam.learn_already' : 'not_spam.learn_ok')}
        />
        <StepLine
          label={t('not_spam.steps.whitelist')}
          step={whitelist}
          ok={t('not_spam.whitelist_ok', { address: revealBidi(whitelisted) })}
        />
      </ul>
      {result.others.count > 0 && !others ? (
        <Alert
          type="info"
          showIcon
          title={t('not_spam.others', { count: result.others.count })}
          action={
            <Button
              size="small"
              type="primary"
              loading={bulk.isPending}
              onClick={() => void releaseOthers()}
              data-testid="not-spam-release-others"
            >
              {t(result.others.count === 1 ? 'not_spam.release_others_one' : 'not_spam.release_others')}
            </Button>
          }
          data-testid="not-spam-others"
        />
      ) : null}
      {others ? (
        <Alert
          type={others.type}
          showIcon
          title={others.title}
          description={others.description}
          role="status"
          data-testid="not-spam-others-result"
        />
      ) : null}
    </Flex>
  );
}

/**
 * "Not spam" (issue 18), from the e-mail detail and the quarantine list's row menu alike: asks
 * whether to also allow the sender (for me; for my domain when domain_admin or admin; not at all),
 * then shows each step's outcome (a failed step never hides the others) and offers to release the
 * other quarantined mails from the same sender through the bulk release.
 */
export function NotSpamDialog({ target, onClose }: { target: NotSpamTarget | null; onClose: () => void }) {
  const { t } = useTranslation('mail');
  const base = useId();
  const role = useSession((s) => s.user?.role);
  const domainAllowed = role === 'domain_admin' || role === 'admin';
  const [allow, setAllow] = useState<Allow>('me');
  const [result, setResult] = useState<NotSpamResponse | null>(null);
  const notSpam = useNotSpam();

  const close = () => {
    setResult(null);
    setAllow('me');
    notSpam.reset();
    onClose();
  };
  const submit = async () => {
    if (!target) return;
    try {
      const answer = await notSpam.mutateAsync({
        id: target.id,
        body: { allow_sender: allow === 'none' ? null : allow },
      });
      setResult(answer);
    } catch (error) {
      const { code } = readApiError(error);
      notify({
        type: 'error',
        title: t('not_spam.error'),
        description: code === 'not_found' ? t('email.act.email_deleted') : t(errorMessageKey(error), { ns: 'common' }),
      });
      close();
    }
  };

  const options: { value: Allow; label: string }[] = [
    { value: 'me', label: t('not_spam.allow_me') },
    ...(domainAllowed ? [{ value: 'domain' as Allow, label: t('not_spam.allow_domain') }] : []),
    { value: 'none', label: t('not_spam.allow_none') },
  ];

  return (
    <Modal
      open={target !== null}
      title={t(result ? 'not_spam.result_title' : 'not_spam.title')}
      // Not closed while the server works: the result would be lost.
      onCancel={() => !notSpam.isPending && close()}
      footer={
        result ? (
          <Button onClick={close} data-testid="not-spam-close">
            {t('not_spam.close')}
          </Button>
        ) : (
          <Flex gap={8} justify="flex-end" wrap>
            <Button onClick={close} disabled={notSpam.isPending} data-testid="not-spam-cancel">
              {t('not_spam.cancel')}
            </Button>
            <Button
              type="primary"
              loading={notSpam.isPending}
              onClick={() => void submit()}
              data-testid="not-spam-submit"
            >
              {t('not_spam.submit')}
            </Button>
          </Flex>
        )
      }
      data-testid="not-spam-dialog"
    >
      {result ? (
        <Result result={result} />
      ) : target ? (
        <Flex vertical gap={12}>
          <Typography.Paragraph style={{ margin: 0 }}>
            {t(target.canLearn === false ? 'not_spam.intro_no_learn' : 'not_spam.intro')}
          </Typography.Paragraph>
          <div role="group" aria-labelledby={`${base}-allow`}>
            <div id={`${base}-allow`} style={{ marginBottom: 6, wordBreak: 'break-word' }}>
              {t('not_spam.allow', { sender: revealBidi(target.sender) })}
            </div>
            <Radio.Group
              value={allow}
              onChange={(e) => setAllow(e.target.value as Allow)}
              options={options}
              aria-labelledby={`${base}-allow`}
              data-testid="not-spam-allow"
            />
          </div>
        </Flex>
      ) : null}
    </Modal>
  );
}
