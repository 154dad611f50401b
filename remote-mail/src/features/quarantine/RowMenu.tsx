import { LikeOutlined, MoreOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import type { TFunction } from 'i18next';
import { shownSubject } from '../email/bidi';
import { HELD, type QuarantineItem } from './quarantine.types';

/** Class of the row menu's cell: a click there does not open the e-mail. */
export const ROW_MENU_CLASS = 'qc-row-menu';

/**
 * The row menu of a quarantined e-mail ("Not spam" for now, issue 18), named by the row's subject.
 * Only for mails still held whose bytes are kept (a release is part of it).
 */
export function RowMenu({
  item,
  t,
  onNotSpam,
}: {
  item: QuarantineItem;
  t: TFunction<'mail'>;
  onNotSpam: (item: QuarantineItem) => void;
}) {
  const enabled = HELD.includes(item.status) && item.raw_available;
  return (
    <span className={ROW_MENU_CLASS}>
      <Dropdown
        trigger={['click']}
        disabled={!enabled}
        menu={{
          items: [
            {
              key: 'not_spam',
              icon: <LikeOutlined aria-hidden />,
              label: <span data-testid="row-not-spam">{t('not_spam.button')}</span>,
            },
          ],
          onClick: ({ domEvent }) => {
            domEvent.stopPropagation();
            onNotSpam(item);
          },
        }}
      >
        <Button
          type="text"
          size="small"
          icon={<MoreOutlined aria-hidden />}
          aria-label={t('quarantine.row_menu', { subject: shownSubject(item.subject, t('no_subject')) })}
          aria-haspopup="menu"
          data-testid="quarantine-row-menu"
        />
      </Dropdown>
    </span>
  );
}
