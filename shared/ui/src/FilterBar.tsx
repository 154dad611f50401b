import { FilterOutlined, UndoOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePhoneLayout } from './usePhoneLayout';

export interface FilterBarProps {
  /** The search landmark's name. */
  label: string;
  /** Test ids `<testPrefix>-filters`, `<testPrefix>-filters-more` and `<testPrefix>-filters-reset`. */
  testPrefix: string;
  /** The filters always in view. */
  children: ReactNode;
  /**
   * Filters a phone shows only behind a "More filters" button (they would push the list off
   * screen); the button says how many of them are set (`active`).
   */
  more?: { filters: ReactNode; active: number };
  /** "Reset filters", shown while the filters differ from the defaults (`shown`). */
  reset?: { shown: boolean; onReset: () => void };
}

/** A list's filters: a search landmark of labelled fields side by side, wrapping on a narrow screen. */
export function FilterBar({ label, testPrefix, children, more, reset }: FilterBarProps) {
  const { t } = useTranslation('common');
  const phone = usePhoneLayout();
  const [showMore, setShowMore] = useState(false);
  return (
    <Flex
      wrap
      gap={12}
      align="flex-end"
      role="search"
      aria-label={label}
      style={{ marginBottom: 16 }}
      data-testid={`${testPrefix}-filters`}
    >
      {children}
      {more && (!phone || showMore) ? more.filters : null}
      {more && phone ? (
        <Button
          icon={<FilterOutlined aria-hidden />}
          aria-expanded={showMore}
          onClick={() => setShowMore(!showMore)}
          data-testid={`${testPrefix}-filters-more`}
        >
          {showMore
            ? t('filters.fewer')
            : more.active
              ? t('filters.more_active', { count: more.active })
              : t('filters.more')}
        </Button>
      ) : null}
      {reset?.shown ? (
        <Button icon={<UndoOutlined aria-hidden />} onClick={reset.onReset} data-testid={`${testPrefix}-filters-reset`}>
          {t('filters.reset')}
        </Button>
      ) : null}
    </Flex>
  );
}
