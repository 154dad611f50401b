import Flex from 'antd/es/flex';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { HoldReason, LearnedState } from '@qc/contracts';
import { formatDateTime } from '@qc/ui';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatScore } from '../quarantine/quarantine.format';

/** One reason in words: whose blacklist, which filter, the score against its threshold, a verdict. */
export function holdReasonText(t: TFunction<'mail'>, lang: string, reason: HoldReason): string {
  switch (reason.kind) {
    case 'list':
      if (reason.scope === 'user')
        return reason.by_you
          ? t('learn.reasons.list_you')
          : t('learn.reasons.list_user', { recipient: reason.recipient });
      return t(reason.scope === 'domain' ? 'learn.reasons.list_domain' : 'learn.reasons.list_global');
    case 'rule':
      return t('learn.reasons.rule', { name: reason.label ?? reason.token });
    case 'score':
      return reason.required_score === null
        ? t('learn.reasons.score_only', { score: formatScore(reason.score, lang) })
        : t('learn.reasons.score', {
            score: formatScore(reason.score, lang),
            required: formatScore(reason.required_score, lang),
          });
    case 'verdict':
      return t('learn.reasons.verdict', { action: t(`actions.${reason.action}`, { defaultValue: reason.action }) });
  }
}

/** "Why held" (strongest reason first) and what was learned from this e-mail, above its actions. */
export function HoldReasons({ reasons, learned }: { reasons: HoldReason[]; learned: LearnedState | null }) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? 'fr';
  if (!reasons.length && !learned) return null;
  return (
    <Flex vertical gap={6} data-testid="email-hold">
      {reasons.length ? (
        <Flex gap={6} wrap align="center" role="group" aria-label={t('learn.why_label')}>
          <Typography.Text type="secondary">{t('learn.why')}</Typography.Text>
          {reasons.map((r, i) => (
            <Tag
              key={i}
              color={i === 0 ? 'volcano' : undefined}
              style={{ whiteSpace: 'normal', marginInlineEnd: 0 }}
              data-testid="email-hold-reason"
            >
              {holdReasonText(t, lang, r)}
            </Tag>
          ))}
        </Flex>
      ) : null}
      {learned ? (
        <Typography.Text type="secondary" data-testid="email-learned">
          {t('learn.learned', {
            as: t(`learn.as_${learned.as}`),
            date: formatDateTime(learned.at, lang, 'medium'),
            by: learned.by,
            // Who learned it is not the caller's to know (null): no "by".
            ...(learned.by === null ? { context: 'anonymous' } : {}),
          })}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
