import { DownOutlined, ExperimentOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import type { LearnAs } from '@qc/contracts';
import { useTranslation } from 'react-i18next';
import { useLearnAction } from './useLearnAction';

/**
 * "Learn" with its two choices (spam, ham), for the e-mail detail and a history row. A menu button:
 * Enter or Space opens it, the arrows move, Enter picks.
 */
export function LearnMenu({
  id,
  size,
  label,
  ariaLabel,
  disabled,
  testId = 'learn-menu',
}: {
  id: string;
  size?: 'small' | 'middle';
  label?: string;
  ariaLabel?: string;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('mail');
  const learn = useLearnAction();
  const items = (['spam', 'ham'] as LearnAs[]).map((as) => ({
    key: as,
    label: <span data-testid={`learn-${as}`}>{t(`learn.${as}`)}</span>,
  }));
  return (
    <Dropdown
      menu={{ items, onClick: ({ key }) => void learn.run(id, key as LearnAs) }}
      trigger={['click']}
      disabled={disabled || learn.isPending}
    >
      <Button
        size={size}
        icon={<ExperimentOutlined aria-hidden />}
        loading={learn.isPending}
        aria-label={ariaLabel}
        aria-haspopup="menu"
        data-testid={testId}
      >
        {label ?? t('learn.menu')} <DownOutlined aria-hidden />
      </Button>
    </Dropdown>
  );
}
