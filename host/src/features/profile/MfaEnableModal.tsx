import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import QRCode from 'antd/es/qr-code';
import Spin from 'antd/es/spin';
import Steps from 'antd/es/steps';
import Typography from 'antd/es/typography';
import { errorMessageKey, readApiError } from '@qc/api-client';
import { LIMITS } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BackupCodes } from './BackupCodes';
import { useEnableMfa, useMfaSetup } from './profile.queries';

const STEPS = ['scan', 'verify', 'codes'] as const;
type Step = (typeof STEPS)[number];

const CODE_PATTERN = new RegExp(`^\\d{${LIMITS.totpLength}}$`);
const digitsOnly = (v: string) => v.replace(/\D/g, '').slice(0, LIMITS.totpLength);

/**
 * Turning MFA on (spec §4): setup → QR code of the otpauth URL (and the secret for manual entry) →
 * a 6-digit code → the backup codes, shown once. Mounted when opened; the setup starts then.
 */
export function MfaEnableModal({ account, onClose }: { account: string; onClose: () => void }) {
  const { t } = useTranslation('host');
  const setup = useMfaSetup();
  const enable = useEnableMfa();
  const [step, setStep] = useState<Step>('scan');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [form] = Form.useForm<{ totp_code: string }>();
  const started = useRef(false);
  const startSetup = setup.mutate;

  useEffect(() => {
    if (started.current) return; // once, also under StrictMode
    started.current = true;
    startSetup(undefined, {
      onError: (error) =>
        notify({ type: 'error', title: t('mfa.error'), description: t(`common:${errorMessageKey(error)}`) }),
    });
  }, [startSetup, t]);

  const onVerify = async ({ totp_code }: { totp_code: string }) => {
    try {
      const res = await enable.mutateAsync(totp_code);
      setCodes(res.backup_codes);
      setStep('codes');
      notify({ type: 'success', title: t('mfa.enabled') });
    } catch (error) {
      const { errors, code } = readApiError(error);
      if (errors?.totp_code || code === 'invalid_code') {
        form.setFields([{ name: 'totp_code', errors: [t('mfa.code_wrong')] }]);
        notify({ type: 'error', title: t('mfa.error') });
      } else {
        notify({ type: 'error', title: t('mfa.error'), description: t(`common:${errorMessageKey(error)}`) });
      }
    }
  };

  const done = step === 'codes';
  return (
    <Modal
      open
      title={t('mfa.enable_title')}
      onCancel={done ? undefined : onClose}
      closable={!done}
      keyboard={!done}
      mask={{ closable: false }}
      footer={null}
      width={560}
      destroyOnHidden
    >
      <div data-testid="mfa-enable-modal" data-step={step}>
        <Steps
          size="small"
          current={STEPS.indexOf(step)}
          items={STEPS.map((s) => ({ title: t(`mfa.steps.${s}`) }))}
          style={{ margin: '8px 0 24px' }}
        />
        {step === 'scan' ? (
          <div data-testid="mfa-step-scan">
            {setup.isPending ? (
              <Flex justify="center" style={{ padding: 48 }}>
                <Spin aria-label={t('common:states.loading')} />
              </Flex>
            ) : setup.isError ? (
              <Alert
                type="error"
                showIcon
                title={t('mfa.setup_error')}
                description={t(`common:${errorMessageKey(setup.error)}`)}
                action={
                  <Button size="small" onClick={() => setup.mutate()}>
                    {t('mfa.retry')}
                  </Button>
                }
              />
            ) : setup.data ? (
              <>
                <Typography.Paragraph style={{ marginTop: 0 }}>{t('mfa.scan_help')}</Typography.Paragraph>
                <Flex justify="center" style={{ marginBottom: 16 }}>
                  {/* Black on white whatever the theme: scanners read dark modules on a light ground. */}
                  <QRCode
                    value={setup.data.otpauth_url}
                    type="svg"
                    size={200}
                    color="#000000"
                    bgColor="#ffffff"
                    errorLevel="M"
                    role="img"
                    aria-label={t('mfa.qr_label')}
                    data-testid="mfa-qr"
                  />
                </Flex>
                <Typography.Paragraph style={{ marginBottom: 4 }}>{t('mfa.manual')}</Typography.Paragraph>
                <Typography.Paragraph
                  copyable={{ text: setup.data.secret }}
                  code
                  data-testid="mfa-secret"
                  style={{ wordBreak: 'break-all', fontSize: 15 }}
                >
                  {setup.data.secret.replace(/(.{4})(?=.)/g, '$1 ')}
                </Typography.Paragraph>
              </>
            ) : null}
            <Flex justify="flex-end" gap={8} style={{ marginTop: 16 }}>
              <Button onClick={onClose}>{t('mfa.cancel')}</Button>
              <Button type="primary" disabled={!setup.data} onClick={() => setStep('verify')} data-testid="mfa-next">
                {t('mfa.next')}
              </Button>
            </Flex>
          </div>
        ) : null}
        {step === 'verify' ? (
          <Form form={form} name="mfa-enable" layout="vertical" onFinish={onVerify} data-testid="mfa-step-verify">
            <Typography.Paragraph style={{ marginTop: 0 }}>{t('mfa.code_help')}</Typography.Paragraph>
            <Form.Item
              name="totp_code"
              label={t('mfa.code')}
              getValueFromEvent={(e: { target: { value: string } }) => digitsOnly(e.target.value)}
              rules={[
                {
                  validator: (_rule, value: unknown) =>
                    typeof value === 'string' && CODE_PATTERN.test(value)
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('mfa.code_invalid'))),
                },
              ]}
            >
              <Input
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={LIMITS.totpLength}
                pattern="[0-9]*"
                autoFocus
                data-testid="mfa-code"
                style={{ maxWidth: 200, letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' }}
              />
            </Form.Item>
            <Flex justify="flex-end" gap={8}>
              <Button onClick={() => setStep('scan')}>{t('mfa.back')}</Button>
              <Button type="primary" htmlType="submit" loading={enable.isPending} data-testid="mfa-verify">
                {t('mfa.verify_submit')}
              </Button>
            </Flex>
          </Form>
        ) : null}
        {step === 'codes' && codes ? <BackupCodes codes={codes} account={account} onDone={onClose} /> : null}
      </div>
    </Modal>
  );
}
