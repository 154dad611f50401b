import { LikeOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HELD, type QuarantineDetail } from '../quarantine/quarantine.types';
import { BlockSender } from './BlockSender';
import { LearnMenu } from './LearnMenu';
import { NotSpamDialog, type NotSpamTarget } from './NotSpamDialog';

/** The detail's issue-18 actions, beside Download/Release/Delete: Not spam, Block sender, Learn. */
export function SpamActions({ email }: { email: QuarantineDetail }) {
  const { t } = useTranslation('mail');
  const [target, setTarget] = useState<NotSpamTarget | null>(null);
  const held = HELD.includes(email.status) || email.recipients.some((r) => HELD.includes(r.status));
  return (
    <>
      <Button
        icon={<LikeOutlined aria-hidden />}
        onClick={() => setTarget({ id: email.id, sender: email.sender, canLearn: email.can_learn })}
        disabled={!held || !email.raw_available}
        data-testid="email-not-spam"
      >
        {t('not_spam.button')}
      </Button>
      <BlockSender sender={email.sender} />
      {/* Only for a role that may learn (QC_LEARN_ROLES): the api would refuse it. */}
      {email.can_learn ? <LearnMenu id={email.id} disabled={!email.raw_available} testId="email-learn" /> : null}
      <NotSpamDialog target={target} onClose={() => setTarget(null)} />
    </>
  );
}
