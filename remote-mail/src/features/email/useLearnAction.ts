import { errorMessageKey, readApiError } from '@qc/api-client';
import type { LearnAs } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { useLearn } from './learning.queries';

const EXPLAINED = ['rspamd_unavailable', 'rspamd_refused', 'learn_not_configured'];

/**
 * Learn (spam / ham) from a quarantined e-mail, for the detail and the history's rows: Rspamd's
 * answer in the notice, "Already learned as …" when it was, and a refusal with Rspamd's answer.
 */
export function useLearnAction() {
  const { t } = useTranslation('mail');
  const learn = useLearn();
  const run = async (id: string, as: LearnAs) => {
    try {
      const result = await learn.mutateAsync({ id, as });
      notify({
        type: result.already ? 'info' : 'success',
        title: t(result.already ? `learn.already_${result.as}` : `learn.done_${result.as}`),
        description: result.rspamd ? t('learn.rspamd_answer', { answer: result.rspamd }) : undefined,
      });
    } catch (error) {
      const { code, detail } = readApiError(error);
      let description = EXPLAINED.includes(code) ? t(`learn.${code}`) : t(errorMessageKey(error), { ns: 'common' });
      // A 502 carries Rspamd's own answer: shown as it gave it.
      if ((code === 'rspamd_refused' || code === 'rspamd_unavailable') && detail)
        description += ` ${t('learn.rspamd_answer', { answer: detail })}`;
      notify({ type: 'error', title: t('learn.error'), description });
    }
  };
  return { run, isPending: learn.isPending, pendingAs: learn.isPending ? learn.variables?.as : undefined };
}
