import { errorMessageKey, errorMessageValues, readApiError } from '@qc/api-client';
import type { LearnAs } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { useLearn } from './learning.queries';

/** The learn refusals said in the mail namespace (learn.<code>); the others by the common errors (429 with its wait). */
export const LEARN_CODES = [
  'rspamd_unavailable',
  'rspamd_refused',
  'learn_not_configured',
  'learning_not_allowed',
  'learn_in_progress',
];

/**
 * Learn (spam / ham) from a quarantined e-mail, for the detail and the history's rows: Rspamd's
 * answer in the notice, "Already learned as …" when it was (nothing new learned), and a refusal
 * with Rspamd's answer, or why the console refused (role, already under way, budget with its wait).
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
        // The api's note on a learn not sent is English: "already" says it in the user's language.
        description: result.already
          ? t('learn.already_description')
          : result.rspamd
            ? t('learn.rspamd_answer', { answer: result.rspamd })
            : undefined,
      });
    } catch (error) {
      const { code, detail } = readApiError(error);
      let description = LEARN_CODES.includes(code)
        ? t(`learn.${code}`)
        : t(errorMessageKey(error), { ns: 'common', ...errorMessageValues(error) });
      // A 502 carries Rspamd's own answer: shown as it gave it.
      if ((code === 'rspamd_refused' || code === 'rspamd_unavailable') && detail)
        description += ` ${t('learn.rspamd_answer', { answer: detail })}`;
      notify({ type: 'error', title: t('learn.error'), description });
    }
  };
  return { run, isPending: learn.isPending, pendingAs: learn.isPending ? learn.variables?.as : undefined };
}
