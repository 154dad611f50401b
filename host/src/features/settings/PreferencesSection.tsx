import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form, { type FormInstance } from 'antd/es/form';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Typography from 'antd/es/typography';
import { notify, PREFERENCES_KEY, usePreferences, type ThemeMode, type UserPreferences } from '@qc/ui-state';
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router-dom';
import { applyServerPreferences, PAGE_SIZES, THEME_MODES, toPageSize, toServerPreferences } from './preferences-sync';
import { useSavePreferences, useServerPreferences } from './settings.queries';

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
function useLeaveGuard(form: FormInstance<PreferencesValues>, saved: UserPreferences, modal: ModalApi) {
  const { t } = useTranslation('host');
  const values = Form.useWatch([], form) as Partial<PreferencesValues> | undefined;
  // Untouched, the form only shows the saved choices (while it catches up with a change made elsewhere).
  const dirty =
    !!values &&
    form.isFieldsTouched() &&
    ((values.themeMode !== undefined && values.themeMode !== saved.themeMode) ||
      (values.defaultPageSize !== undefined && values.defaultPageSize !== toPageSize(saved.defaultPageSize)));
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
 * Theme mode and default page size (spec §3): saved to localStorage `userPreferences` (the theme
 * applies at once, like the top-bar toggle, through the one preferences store) AND to the account.
 * On load the account copy is merged over the local one.
 */
export function PreferencesSection() {
  const { t } = useTranslation('host');
  const [form] = Form.useForm<PreferencesValues>();
  const server = useServerPreferences();
  const save = useSavePreferences();
  const local = usePreferences((s) => s.preferences);
  const [modal, modalHolder] = Modal.useModal();
  const unsaved = useLeaveGuard(form, local, modal);

  useEffect(() => {
    if (!server.data) return;
    const merged = applyServerPreferences(server.data);
    if (!form.isFieldsTouched()) {
      form.setFieldsValue({ themeMode: merged.themeMode, defaultPageSize: toPageSize(merged.defaultPageSize) });
    }
  }, [server.data, form]);

  // A choice made elsewhere (the top bar's theme toggle) shows here too, unless the user is editing.
  useEffect(() => {
    if (!form.isFieldsTouched()) {
      form.setFieldsValue({ themeMode: local.themeMode, defaultPageSize: toPageSize(local.defaultPageSize) });
    }
  }, [local, form]);

  useEffect(() => {
    if (server.isError) notify({ type: 'warning', title: t('settings.preferences.sync_error') });
  }, [server.isError, t]);

  const onFinish = async (values: PreferencesValues) => {
    const saved = usePreferences.getState().save(values);
    const keptLocally = storedLocally(saved);
    try {
      await save.mutateAsync(toServerPreferences(saved));
      notify({ type: 'success', title: t('settings.preferences.success') });
      form.resetFields(); // untouched again: a later server answer may refresh the fields
      form.setFieldsValue({ themeMode: saved.themeMode, defaultPageSize: toPageSize(saved.defaultPageSize) });
    } catch {
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
      data-testid="preferences-form"
    >
      {modalHolder}
      <Form.Item name="themeMode" label={t('settings.preferences.theme')}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
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
          optionType="button"
          buttonStyle="solid"
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
