import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import QRCode from 'antd/es/qr-code';
import Spin from 'antd/es/spin';
import Steps from 'antd/es/steps';
import Typography from 'antd/es/typography';
import type { MfaSetupResponse } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BackupCodes } from './BackupCodes';
import { TotpCodeField } from './TotpCodeField';

const STEPS = ['scan', 'verify', 'codes'] as const;
export type MfaSetupStep = (typeof STEPS)[number];

/** The set-up's secret is no longer usable: a new one is made, to scan again. */
const SETUP_GONE = new Set(['mfa_setup_expired', 'mfa_not_pending']);

/** A failed call as the steps need it: the API's code, and the translated words of any other failure. */
export interface MfaSetupErrorInfo {
  code: string | null;
  message: string;
}

export interface MfaSetupStepsProps {
  /** POST …/mfa/setup/: the pending secret and its otpauth URL. */
  startSetup: () => Promise<MfaSetupResponse>;
  /** POST …/mfa/enable/ with the first code: the backup codes. */
  enable: (code: string) => Promise<readonly string[]>;
  /** Reads a failure; null when the caller dealt with it itself (the sign-in ended: nothing more to say here). */
  describeError: (error: unknown) => MfaSetupErrorInfo | null;
  onCancel: () => void;
  cancelLabel: string;
  /** After "I saved these codes". */
  onDone: () => void;
  doneLabel?: string;
  /** What follows Done is under way. */
  finishing?: boolean;
  onStepChange?: (step: MfaSetupStep) => void;
  /** Named in the downloaded codes file; by default the account of the otpauth URL. */
  account?: string;
}

/** The account an otpauth URL was made for (its label is "issuer:account"). */
function accountOf(otpauthUrl: string): string {
  try {
    const label = decodeURIComponent(new URL(otpauthUrl).pathname.replace(/^\/+/, ''));
    return label.slice(label.indexOf(':') + 1);
  } catch {
    return '';
  }
}

type SetupState =
  { status: 'pending' } | { status: 'ready'; data: MfaSetupResponse } | { status: 'error'; message: string };

/**
 * Turning two-factor on (spec §4), shared by the profile's dialog and the set-up a sign-in may require:
 * set-up → QR code of the otpauth URL (and the secret for manual entry) → a 6-digit code → the backup
 * codes, shown once. The set-up starts when mounted. Who calls the API (the session's client, or the
 * set-up token of a sign-in) is the caller's choice.
 */
export function MfaSetupSteps({
  startSetup,
  enable,
  describeError,
  onCancel,
  cancelLabel,
  onDone,
  doneLabel,
  finishing = false,
  onStepChange,
  account,
}: MfaSetupStepsProps) {
  const { t } = useTranslation('host');
  const [step, setStep] = useState<MfaSetupStep>('scan');
  const [setup, setSetup] = useState<SetupState>({ status: 'pending' });
  const [codes, setCodes] = useState<readonly string[] | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [form] = Form.useForm<{ totp_code: string }>();
  const started = useRef(false);

  const start = useCallback(() => {
    setSetup({ status: 'pending' });
    startSetup().then(
      (data) => setSetup({ status: 'ready', data }),
      (error: unknown) => {
        const info = describeError(error);
        if (!info) return;
        setSetup({ status: 'error', message: info.message });
        notify({ type: 'error', title: t('mfa.error'), description: info.message });
      },
    );
  }, [startSetup, describeError, t]);

  useEffect(() => {
    if (started.current) return; // once, also under StrictMode
    started.current = true;
    start();
  }, [start]);

  useEffect(() => onStepChange?.(step), [step, onStepChange]);

  const onVerify = async ({ totp_code }: { totp_code: string }) => {
    setVerifying(true);
    try {
      setCodes(await enable(totp_code));
      setStep('codes');
      notify({ type: 'success', title: t('mfa.enabled') });
    } catch (error) {
      const info = describeError(error);
      if (!info) return;
      if (info.code === 'invalid_code' || info.code === 'validation_error') {
        // One error, where the code is typed (a notice as well said it twice).
        form.setFields([{ name: 'totp_code', errors: [t('mfa.code_wrong')] }]);
      } else if (info.code && SETUP_GONE.has(info.code)) {
        // Left too long unconfirmed: a new secret, to scan again.
        notify({ type: 'warning', title: t('mfa.setup_expired') });
        form.resetFields();
        setStep('scan');
        start();
      } else {
        notify({ type: 'error', title: t('mfa.verify_error'), description: info.message });
      }
    } finally {
      setVerifying(false);
    }
  };

  const data = setup.status === 'ready' ? setup.data : null;
  return (
    <div data-testid="mfa-setup" data-step={step}>
      <Steps
        size="small"
        current={STEPS.indexOf(step)}
        items={STEPS.map((s) => ({ title: t(`mfa.steps.${s}`) }))}
        style={{ margin: '8px 0 24px' }}
      />
      {step === 'scan' ? (
        <div data-testid="mfa-step-scan">
          {setup.status === 'pending' ? (
            <Flex justify="center" style={{ padding: 48 }}>
              <Spin aria-label={t('common:states.loading')} />
            </Flex>
          ) : setup.status === 'error' ? (
            <Alert
              type="error"
              showIcon
              title={t('mfa.setup_error')}
              description={setup.message}
              action={
                <Button size="small" onClick={start}>
                  {t('mfa.retry')}
                </Button>
              }
            />
          ) : (
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
          )}
          <Flex justify="flex-end" gap={8} wrap style={{ marginTop: 16 }}>
            <Button onClick={onCancel}>{cancelLabel}</Button>
            <Button type="primary" disabled={!data} onClick={() => setStep('verify')} data-testid="mfa-next">
              {t('mfa.next')}
            </Button>
          </Flex>
        </div>
      ) : null}
      {step === 'verify' ? (
        <Form form={form} name="mfa-enable" layout="vertical" onFinish={onVerify} data-testid="mfa-step-verify">
          <Typography.Paragraph style={{ marginTop: 0 }}>{t('mfa.code_help')}</Typography.Paragraph>
          <TotpCodeField label={t('mfa.code')} testId="mfa-code" />
          <Flex justify="flex-end" gap={8} wrap>
            <Button onClick={() => setStep('scan')}>{t('mfa.back')}</Button>
            <Button type="primary" htmlType="submit" loading={verifying} data-testid="mfa-verify">
              {t('mfa.verify_submit')}
            </Button>
          </Flex>
        </Form>
      ) : null}
      {step === 'codes' && codes ? (
        <BackupCodes
          codes={codes}
          account={account ?? (data ? accountOf(data.otpauth_url) : '')}
          onDone={onDone}
          busy={finishing}
          {...(doneLabel ? { doneLabel } : {})}
        />
      ) : null}
    </div>
  );
}
