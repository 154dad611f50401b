import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Typography from 'antd/es/typography';
import { PageHeader } from '@qc/ui';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { ListsSection } from '../lists/ListsSection';
import { QuarantineNotificationsSection } from '../quarantine-notifications/QuarantineNotificationsSection';
import { PreferencesSection } from './PreferencesSection';

export interface SettingsSection {
  /** Anchor (`#settings-<id>`) and test id. */
  id: string;
  /** `host` keys. */
  title: string;
  description?: string;
  Component: ComponentType;
}

/**
 * The sections of /settings, in order, each a component of its own feature folder.
 */
export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  {
    id: 'preferences',
    title: 'settings.preferences.title',
    description: 'settings.preferences.description',
    Component: PreferencesSection,
  },
  {
    id: 'notifications',
    title: 'quarantine_notifications.title',
    description: 'quarantine_notifications.description',
    Component: QuarantineNotificationsSection,
  },
  {
    id: 'lists',
    title: 'lists.title',
    description: 'lists.description',
    Component: ListsSection,
  },
];

/** /settings (spec §2): every role. */
export default function SettingsPage({ sections = SETTINGS_SECTIONS }: { sections?: readonly SettingsSection[] }) {
  const { t } = useTranslation('host');
  return (
    <section aria-labelledby="settings-title" data-testid="settings-page">
      <PageHeader
        title={<span id="settings-title">{t('pages.settings')}</span>}
        description={t('settings.description')}
      />
      <Flex vertical gap={24} style={{ maxWidth: 760 }}>
        {sections.map(({ id, title, description, Component }) => (
          <Card
            key={id}
            id={`settings-${id}`}
            role="region"
            aria-labelledby={`settings-${id}-title`}
            data-testid={`settings-section-${id}`}
            title={
              <h2 id={`settings-${id}-title`} style={{ margin: 0, fontSize: 16 }}>
                {t(title)}
              </h2>
            }
          >
            {description ? (
              <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
                {t(description)}
              </Typography.Paragraph>
            ) : null}
            <Component />
          </Card>
        ))}
      </Flex>
    </section>
  );
}
