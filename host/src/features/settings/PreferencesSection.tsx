import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form, { type FormInstance } from 'antd/es/form';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Typography from 'antd/es/typography';
import {
  notify,
  PREFERENCES_KEY,
  usePreferences,
  withUnsynced,
  type ThemeMode,
  type UserPreferences,
} from '@qc/ui-state';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router-dom';
import { applyServerPreferences, PAGE_SIZES, THEME_MODES, toPageSize, toServerPreferences } from './preferences-sync';
import { useSavePreferences, useServerPreferences } from './settings.queries';
import { useChoiceGroup } from '@qc/ui';

interface PreferencesValues {
  themeMode: ThemeMode;
  defaultPageSize: number;
}

const THEME_ICONS: Record<ThemeMode, ReactNode> = {
  light: <SunOutlined aria-hidden />,
  dark: <MoonOutlined aria-hidden />,
  system: <DesktopOutlined aria-hidden />,
};

function storedLocally(p: UserPreferences): boolean {
  try {
    return window.localStorage.getItem(PREFERENCES_KEY) === JSON.stringify(p);
  } catch {
    return false;
  }
}

/**
 * Choices not saved yet would be dropped without a word on leaving the page: leaving asks first
 * (another page of the console: a confirmation; closing or reloading the tab: the browser's own).
 */
function useLeaveGuard(form: FormInstance<PreferencesValues>, saved: UserPreferences, edited: Edited, modal: ModalApi) {
  const { t } = useTranslation('host');
  const values = Form.useWatch([], form) as Partial<PreferencesValues> | undefined;
  // An untouched field only shows the saved choice (maybe catching up with a change made elsewhere).
  const dirty =
    !!values &&
    ((edited.has('themeMode') && values.themeMode !== saved.themeMode) ||
      (edited.has('defaultPageSize') && values.defaultPageSize !== toPageSize(saved.defaultPageSize)));
  const blocker = useBlocker(dirty);
  const current = useRef(blocker); // a new object each render: the dialog answers the latest
  useLayoutEffect(() => {
    current.current = blocker;
  });
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void modal.confirm({
      title: t('settings.preferences.unsaved_title'),
      content: t('settings.preferences.unsaved_body'),
      okText: t('settings.preferences.unsaved_leave'),
      cancelText: t('settings.preferences.unsaved_stay'),
      okButtonProps: { danger: true },
      focusable: { autoFocusButton: 'cancel' },
      onOk: () => current.current.proceed?.(),
      onCancel: () => current.current.reset?.(),
    });
  }, [blocker.state, modal, t]);
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  return dirty;
}

type ModalApi = ReturnType<typeof Modal.useModal>[0];

/**
 * The fields the user changed since the last save (antd's "touched" also counts changes made by
 * code: the radio groups report them as changes).
 */
type Edited = ReadonlySet<keyof PreferencesValues>;
const NONE: Edited = new Set();

/** Shows these choices in the fields the user has not edited: an edited one is theirs until saved. */
function showUnedited(form: FormInstance<PreferencesValues>, p: UserPreferences, edited: Edited) {
  form.setFieldsValue({
    ...(edited.has('themeMode') ? {} : { themeMode: p.themeMode }),
    ...(edited.has('defaultPageSize') ? {} : { defaultPageSize: toPageSize(p.defaultPageSize) }),
  });
}

/**
 * Theme mode and default page size (spec §3): saved to localStorage `userPreferences` (the theme
 * applies at once, like the top-bar toggle, through the one preferences store) AND to the account.
 * On load the account copy is merged over the local one.
 */
export function PreferencesSection() {
  const { t } = useTranslation('host');
  const choiceGroup = useChoiceGroup();
  const [form] = Form.useForm<PreferencesValues>();
  const server = useServerPreferences();
  const save = useSavePreferences();
  const local = usePreferences((s) => s.preferences);
  const [modal, modalHolder] = Modal.useModal();
  const [edited, setEdited] = useState<Edited>(NONE);
  const unsaved = useLeaveGuard(form, local, edited, modal);
  /** After a save (kept in this browser at least): nothing edited any more, the saved choices shown. */
  const settle = (saved: UserPreferences) => {
    setEdited(NONE);
    showUnedited(form, saved, NONE);
  };

  useEffect(() => {
    if (!server.data) return;
    showUnedited(form, applyServerPreferences(server.data), edited);
  }, [server.data, form, edited]);

  // A choice made elsewhere (the top bar's theme toggle) shows here too, unless the user is editing it.
  useEffect(() => showUnedited(form, local, edited), [local, form, edited]);

  useEffect(() => {
    if (server.isError) notify({ type: 'warning', title: t('settings.preferences.sync_error') });
  }, [server.isError, t]);

  const onFinish = async (values: PreferencesValues) => {
    // Unsynced until the account has it (useSavePreferences marks it synced on success).
    const current = usePreferences.getState().preferences;
    const saved = usePreferences
      .getState()
      .save(withUnsynced({ ...current, ...values }, ['themeMode', 'defaultPageSize']));
    const keptLocally = storedLocally(saved);
    try {
      await save.mutateAsync(toServerPreferences(saved));
      notify({ type: 'success', title: t('settings.preferences.success') });
      settle(saved); // a later server answer may refresh the fields again
    } catch {
      if (keptLocally) settle(saved); // saved here, only the account copy is behind
      notify(
        keptLocally
          ? { type: 'warning', title: t('settings.preferences.sync_error') }
          : { type: 'error', title: t('settings.preferences.error') },
      );
    }
  };

  return (
    <Form<PreferencesValues>
      form={form}
      name="preferences"
      layout="vertical"
      initialValues={{ themeMode: local.themeMode, defaultPageSize: toPageSize(local.defaultPageSize) }}
      onFinish={onFinish}
      onValuesChange={(changed: Partial<PreferencesValues>) =>
        setEdited((before) => new Set([...before, ...(Object.keys(changed) as (keyof PreferencesValues)[])]))
      }
      data-testid="preferences-form"
    >
      {modalHolder}
      <Form.Item name="themeMode" label={t('settings.preferences.theme')}>
        <Radio.Group
          {...choiceGroup}
          aria-label={t('settings.preferences.theme')}
          data-testid="preferences-theme"
          options={THEME_MODES.map((mode) => ({
            value: mode,
            label: (
              <span>
                {THEME_ICONS[mode]} {t(`settings.preferences.theme_${mode}`)}
              </span>
            ),
          }))}
        />
      </Form.Item>
      <Form.Item name="defaultPageSize" label={t('settings.preferences.page_size')}>
        <Radio.Group
          {...choiceGroup}
          aria-label={t('settings.preferences.page_size')}
          data-testid="preferences-page-size"
          options={PAGE_SIZES.map((size) => ({
            value: size,
            label: <span title={t('settings.preferences.page_size_option', { count: size })}>{size}</span>,
          }))}
        />
      </Form.Item>
      <Form.Item style={{ marginBottom: 0 }}>
        <Flex align="center" gap={12} wrap>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="preferences-save">
            {t('settings.preferences.save')}
          </Button>
          {unsaved ? (
            <Typography.Text type="secondary" role="status" data-testid="preferences-unsaved">
              {t('settings.preferences.unsaved_hint')}
            </Typography.Text>
          ) : null}
        </Flex>
      </Form.Item>
    </Form>
  );
}
