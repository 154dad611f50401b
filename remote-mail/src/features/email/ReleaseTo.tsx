import { SendOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Typography from 'antd/es/typography';
import { errorMessageKey, errorMessageValues, isHTTPError, readApiError } from '@qc/api-client';
import { useSession } from '@qc/auth';
import { notify } from '@qc/ui-state';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { quarantineKeys } from '../quarantine/quarantine.queries';
import type { QuarantineDetail, ReleaseDelivery } from '../quarantine/quarantine.types';
import { releaseTo } from './email.api';

/** One @, something on each side, no spaces: the server checks the rest (and the domain). */
const LOOKS_LIKE_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * "Send a copy to…" (issue 23): the original, through the release relay, to one other address of
 * the caller's scope (an admin any, a domain_admin one of their domain, a user one of their own:
 * offered when they have several, issue 31). The recipients' own copies stay as they are.
 */
export function ReleaseTo({ email }: { email: QuarantineDetail }) {
  const { t } = useTranslation('mail');
  const base = useId();
  const user = useSession((s) => s.user);
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (to: string) => releaseTo(email.id, to),
    // The history of this mail changed (and a 502 may carry news of the relay).
    onSettled: () => queryClient.invalidateQueries({ queryKey: quarantineKeys.detail(email.id) }),
  });
  if (!user) return null;
  // A user chooses among their own addresses: offered only when there is a choice.
  const own = user.role === 'user' ? user.addresses : null;
  if (own && own.length < 2) return null;
  const domain = user.role === 'domain_admin' ? (user.domain?.name ?? null) : null;

  const close = () => {
    setOpen(false);
    setError(null);
  };

  const submit = async () => {
    const to = own ? address || own[0]! : address.trim();
    if (!LOOKS_LIKE_ADDRESS.test(to)) return setError(t('release_to.invalid'));
    // An ASCII address outside the domain is refused here; the server decides the rest (IDN spellings).
    if (domain && /^[\x20-\x7e]+$/.test(to) && !to.toLowerCase().endsWith(`@${domain.toLowerCase()}`)) {
      return setError(t('release_to.not_in_domain', { domain }));
    }
    setError(null);
    try {
      const answer = await send.mutateAsync(to);
      // 202: the relay has not answered in time; the copy's outcome goes to the history.
      const underWay = answer.status === 'releasing';
      notify({
        type: underWay ? 'info' : 'success',
        title: t(underWay ? 'release_to.releasing' : 'release_to.done'),
        description: t(underWay ? 'release_to.releasing_description' : 'release_to.done_description', {
          address: to,
        }),
      });
      setAddress('');
      close();
    } catch (err) {
      const { code, errors } = readApiError(err);
      if (errors?.address) return setError(errors.address);
      const delivery =
        isHTTPError(err) && (err.data as { delivery?: ReleaseDelivery } | undefined)?.delivery
          ? (err.data as { delivery: ReleaseDelivery }).delivery
          : null;
      const known = ['relay_refused', 'relay_unreachable', 'release_unknown', 'relay_not_configured', 'raw_purged'];
      notify({
        type: code === 'release_unknown' ? 'warning' : 'error',
        title: t('release_to.error'),
        description: [
          known.includes(code)
            ? t(`email.act.${code}`)
            : t(errorMessageKey(err), { ns: 'common', ...errorMessageValues(err) }),
          delivery?.response ?? '',
        ]
          .filter(Boolean)
          .join(' '),
      });
      close();
    }
  };

  return (
    <>
      <Button
        icon={<SendOutlined aria-hidden />}
        onClick={() => setOpen(true)}
        disabled={!email.raw_available}
        data-testid="email-release-to"
      >
        {t('release_to.button')}
      </Button>
      <Modal
        open={open}
        title={t('release_to.title')}
        onCancel={close}
        destroyOnHidden
        footer={
          <Flex gap={8} justify="flex-end" wrap>
            <Button onClick={close} data-testid="email-release-to-cancel">
              {t('not_spam.cancel')}
            </Button>
            <Button
              type="primary"
              loading={send.isPending}
              onClick={() => void submit()}
              data-testid="email-release-to-confirm"
            >
              {t('release_to.submit')}
            </Button>
          </Flex>
        }
        data-testid="email-release-to-dialog"
      >
        <Flex vertical gap={8}>
          <Typography.Paragraph style={{ margin: 0 }}>{t('release_to.body')}</Typography.Paragraph>
          {own ? (
            <Radio.Group
              aria-label={t('release_to.own_addresses')}
              aria-describedby={`${base}-help`}
              value={address || own[0]}
              onChange={(e) => setAddress(String(e.target.value))}
              data-testid="email-release-to-own"
            >
              <Flex vertical gap={4}>
                {own.map((a) => (
                  <Radio key={a} value={a}>
                    {a}
                  </Radio>
                ))}
              </Flex>
            </Radio.Group>
          ) : (
            <>
              <label htmlFor={`${base}-address`}>{t('release_to.address')}</label>
              <Input
                id={`${base}-address`}
                type="email"
                autoComplete="off"
                autoFocus
                value={address}
                status={error ? 'error' : undefined}
                placeholder={domain ? t('release_to.placeholder_domain', { domain }) : 'name@example.com'}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${base}-error` : `${base}-help`}
                onChange={(e) => setAddress(e.target.value)}
                onPressEnter={() => void submit()}
                data-testid="email-release-to-address"
              />
            </>
          )}
          {error ? (
            <Alert
              type="error"
              showIcon
              title={<span id={`${base}-error`}>{error}</span>}
              data-testid="email-release-to-error"
            />
          ) : (
            <Typography.Text type="secondary" id={`${base}-help`}>
              {own
                ? t('release_to.help_own')
                : domain
                  ? t('release_to.help_domain', { domain })
                  : t('release_to.help_admin')}
            </Typography.Text>
          )}
        </Flex>
      </Modal>
    </>
  );
}
