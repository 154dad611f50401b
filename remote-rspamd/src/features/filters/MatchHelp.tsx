import Collapse from 'antd/es/collapse';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { FILTER_PATTERN_TYPES, type FilterType } from '../rules/rules.types';

/**
 * What a family's filters match and the syntax of each pattern type, folded under the list's
 * title (it is reference, not news). The form shows the same texts beside its fields.
 */
export function MatchHelp({ type }: { type: FilterType }) {
  const { t } = useTranslation('rspamd');
  return (
    <Collapse
      size="small"
      style={{ marginBottom: 16 }}
      data-testid="filters-help"
      items={[
        {
          key: 'help',
          label: t('filters.help_title'),
          children: (
            <>
              <Typography.Paragraph>{t(`families.${type}.matches`)}</Typography.Paragraph>
              <dl style={{ margin: 0 }}>
                {FILTER_PATTERN_TYPES[type].map((p) => (
                  <div key={p} style={{ marginBottom: 8 }}>
                    <dt>
                      <Typography.Text strong>{t(`pattern_types.${p}.label`)}</Typography.Text>
                    </dt>
                    <dd style={{ margin: 0 }}>
                      {t(`pattern_types.${p}.help`)} {t(`families.${type}.examples.${p}`)}
                    </dd>
                  </div>
                ))}
              </dl>
            </>
          ),
        },
      ]}
    />
  );
}
