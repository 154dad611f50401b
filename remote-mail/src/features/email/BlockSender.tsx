import { StopOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Typography from 'antd/es/typography';
import { errorMessageKey, readApiError } from '@qc/api-client';
import { useSession } from '@qc/auth';
import { notify } from '@qc/ui-state';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { revealBidi } from './bidi';
import { useBlockSender } from './learning.queries';

type BlockScope = 'user' | 'domain';

/**
 * "Block sender" (issue 18): the sender on the caller's blacklist, or their domain's for a
 * domain_admin (an admin: the domain of their own account, when they have one), after a
 * confirmation that says for whom.
 */
export function BlockSender({ sender }: { sender: string }) {
  const { t } = useTranslation('mail');
  const base = useId();
  const user = useSession((s) => s.user);
  const domainId = user?.role === 'admin' ? user.domain?.id : undefined;
  const domainAllowed = user?.role === 'domain_admin' || Boolean(domainId);
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<BlockScope>('user');
  const block = useBlockSender();
  const address = sender.trim();

  const submit = async () => {
    try {
      const entry = await block.mutateAsync({
        address,
        scope,
        ...(scope === 'domain' && domainId ? { domain_id: domainId } : {}),
      });
      notify({
        type: 'success',
        title: t('block.done'),
        description: t('block.done_description', { address: entry.address_unicode ?? entry.address }),
      });
    } catch (error) {
      const { code, errors } = readApiError(error);
      const description =
        code === 'list_exists'
          ? t('block.exists', { address })
          : code === 'list_conflict'
            ? t('block.conflict', { address })
            : (errors?.address ?? t(errorMessageKey(error), { ns: 'common' }));
      notify({ type: code === 'list_exists' ? 'info' : 'error', title: t('block.error'), description });
    } finally {
      setOpen(false);
    }
  };

  return (
    <>
      <Button
        icon={<StopOutlined aria-hidden />}
        onClick={() => setOpen(true)}
        disabled={!address}
        title={address ? undefined : t('block.no_sender')}
        data-testid="email-block"
      >
        {t('block.button')}
      </Button>
      <Modal
        open={open}
        title={<span style={{ wordBreak: 'break-word' }}>{t('block.title', { sender: revealBidi(address) })}</span>}
        onCancel={() => setOpen(false)}
        footer={
          <Flex gap={8} justify="flex-end">
            <Button onClick={() => setOpen(false)} data-testid="email-block-cancel" autoFocus>
              {t('not_spam.cancel')}
            </Button>
            <Button
              danger
              type="primary"
              loading={block.isPending}
              onClick={() => void submit()}
              data-testid="email-block-confirm"
            >
              {t('block.submit')}
            </Button>
          </Flex>
        }
        data-testid="email-block-dialog"
      >
        <Flex vertical gap={12}>
          {domainAllowed ? (
            <div role="group" aria-labelledby={`${base}-scope`}>
              <div id={`${base}-scope`} style={{ marginBottom: 6 }}>
                {t('block.scope')}
              </div>
              <Radio.Group
                value={scope}
                onChange={(e) => setScope(e.target.value as BlockScope)}
                options={[
                  { value: 'user', label: t('block.for_me') },
                  { value: 'domain', label: t('block.for_domain') },
                ]}
                data-testid="email-block-scope"
              />
            </div>
          ) : null}
          <Typography.Paragraph style={{ margin: 0 }}>
            {t(scope === 'domain' ? 'block.body_domain' : 'block.body_me')}
          </Typography.Paragraph>
        </Flex>
      </Modal>
    </>
  );
}
