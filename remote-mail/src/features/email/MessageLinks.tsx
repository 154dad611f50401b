import { ExportOutlined, WarningOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Modal from 'antd/es/modal';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defangUrl, isMisleadingLink, revealBidi, type MessageLink } from './safe-html';

/**
 * The links of the message, OUTSIDE the sandboxed frame (where they are inert spans). Choosing one
 * shows its real destination in a dialog (rendered in this remote's tree: themed by its own
 * ConfigProvider); only then can it be opened, in a new tab, without opener or referrer.
 */
export function MessageLinks({ links }: { links: MessageLink[] }) {
  const { t } = useTranslation('mail');
  const [pending, setPending] = useState<MessageLink | null>(null);
  const close = () => setPending(null);

  return (
    <section aria-labelledby="email-links-title" style={{ marginTop: 16 }} data-testid="email-links">
      <Typography.Title level={3} id="email-links-title" style={{ fontSize: 16 }}>
        {t('email.preview.links_title')}
      </Typography.Title>
      {links.length === 0 ? (
        <Typography.Text type="secondary">{t('email.preview.no_links')}</Typography.Text>
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('email.preview.links_help')}</Typography.Paragraph>
          <ul style={{ margin: 0, paddingInlineStart: 20 }}>
            {links.map((link) => {
              const misleading = isMisleadingLink(link);
              return (
                <li key={link.href} style={{ marginBottom: 4 }}>
                  <Button
                    type="link"
                    size="small"
                    style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}
                    onClick={() => setPending(link)}
                    data-testid="email-link"
                  >
                    {defangUrl(link.href)}
                  </Button>
                  {link.text && link.text !== link.href ? (
                    <Typography.Text type="secondary"> — {revealBidi(link.text)}</Typography.Text>
                  ) : null}
                  {misleading ? (
                    <Tag
                      color="red"
                      icon={<WarningOutlined aria-hidden />}
                      style={{ marginInlineStart: 8 }}
                      title={t('email.preview.misleading_help')}
                      data-testid="email-link-misleading"
                    >
                      {t('email.preview.misleading')}
                    </Tag>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
      <Modal
        open={pending !== null}
        title={t('email.preview.link_confirm_title')}
        onCancel={close}
        destroyOnHidden
        footer={
          pending ? (
            <Flex justify="flex-end" gap={8}>
              <Button onClick={close}>{t('email.act.cancel')}</Button>
              <Button
                type="primary"
                icon={<ExportOutlined aria-hidden />}
                href={pending.href}
                target="_blank"
                rel="noopener noreferrer"
                onClick={close}
                data-testid="email-link-open"
              >
                {t('email.preview.open_link')}
              </Button>
            </Flex>
          ) : null
        }
      >
        {pending ? (
          <div data-testid="email-link-confirm">
            <Typography.Paragraph>{t('email.preview.link_confirm_body')}</Typography.Paragraph>
            <Typography.Text strong>{t('email.preview.link_target')}</Typography.Text>
            <Typography.Paragraph>
              <Typography.Text code style={{ wordBreak: 'break-all' }} data-testid="email-link-target">
                {revealBidi(pending.href)}
              </Typography.Text>
            </Typography.Paragraph>
            {pending.text ? (
              <>
                <Typography.Text strong>{t('email.preview.link_text')}</Typography.Text>
                <Typography.Paragraph style={{ wordBreak: 'break-word' }}>
                  {revealBidi(pending.text)}
                </Typography.Paragraph>
              </>
            ) : null}
            {isMisleadingLink(pending) ? (
              <Typography.Paragraph type="danger">
                <WarningOutlined aria-hidden /> {t('email.preview.misleading_help')}
              </Typography.Paragraph>
            ) : null}
          </div>
        ) : null}
      </Modal>
    </section>
  );
}
