import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import type { PatternType, RuleAction } from './rules.types';

/**
 * antd preset colours read at ≥ 4.5:1 in both themes (the theme fixes their shades: LIGHT_TAG_TEXT
 * of @qc/ui-state); geekblue and magenta do not in the dark one, so they are not used.
 */
const ACTION_COLORS: Record<RuleAction, string> = {
  reject: 'red',
  soft_reject: 'cyan',
  greylist: 'gold',
  quarantine: 'orange',
  discard: 'volcano',
  add_header: 'blue',
  accept: 'green',
};

export function ActionTag({ action }: { action: RuleAction }) {
  const { t } = useTranslation('rspamd');
  return (
    <Tag color={ACTION_COLORS[action]} data-testid="rule-action">
      {t(`actions.${action}.label`)}
    </Tag>
  );
}

export function PatternTypeTag({ type }: { type: PatternType }) {
  const { t } = useTranslation('rspamd');
  return <Tag data-testid="rule-pattern-type">{t(`pattern_types.${type}.label`)}</Tag>;
}
