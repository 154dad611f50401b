import { PictureOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import { usePhoneLayout, useThemeToken } from '@qc/ui';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageLinks } from './MessageLinks';
import { sanitizeEmailHtml } from './safe-html';

/**
 * The HTML of the message, sanitised (safe-html.ts) and shown in `<iframe sandbox="">`: no
 * scripts, an opaque origin, no navigation, no forms, no popups. Remote images only on request.
 */
export function SafePreview({ html }: { html: string | null }) {
  const { t } = useTranslation('mail');
  const token = useThemeToken();
  const [allowImages, setAllowImages] = useState(false);
  const phone = usePhoneLayout();
  const safe = useMemo(
    () => (html ? sanitizeEmailHtml(html, { allowRemoteImages: allowImages }) : null),
    [html, allowImages],
  );

  const loadButton = (
    <Button
      size="small"
      onClick={() => setAllowImages(true)}
      style={phone ? { whiteSpace: 'normal', height: 'auto', paddingBlock: 4, textAlign: 'start' } : undefined}
      data-testid="email-load-images"
    >
      {t('email.preview.load_images')}
    </Button>
  );

  if (!safe) return <Empty description={t('email.preview.no_html')} data-testid="email-preview-empty" />;
  if (safe.rejected)
    return <Alert type="error" showIcon title={t('email.preview.rejected')} data-testid="email-preview-rejected" />;

  return (
    <div data-testid="email-preview">
      {safe.blockedImages > 0 && !allowImages ? (
        <Alert
          type="info"
          showIcon
          icon={<PictureOutlined aria-hidden />}
          title={t('email.preview.images_blocked', { count: safe.blockedImages })}
          // On a phone the button goes under the text: beside it, it left the text a 25 px column.
          {...(phone ? { description: loadButton } : { action: loadButton })}
          style={{ marginBottom: 12 }}
          data-testid="email-images-blocked"
        />
      ) : null}
      {allowImages ? (
        <Alert
          type="warning"
          showIcon
          title={t('email.preview.images_loaded')}
          style={{ marginBottom: 12 }}
          data-testid="email-images-loaded"
        />
      ) : null}
      <iframe
        // NO allow-scripts, NO allow-same-origin: an empty sandbox is the most restrictive one.
        sandbox=""
        srcDoc={safe.srcdoc}
        title={t('email.preview.frame_title')}
        referrerPolicy="no-referrer"
        data-testid="email-preview-frame"
        style={{
          display: 'block',
          width: '100%',
          height: '60vh',
          minHeight: 320,
          border: `1px solid ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          background: '#fff',
        }}
      />
      <MessageLinks links={safe.links} />
    </div>
  );
}
