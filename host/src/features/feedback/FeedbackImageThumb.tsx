import { PictureOutlined } from '@ant-design/icons';
import Image from 'antd/es/image';
import Spin from 'antd/es/spin';
import Tooltip from 'antd/es/tooltip';
import { fetchBlob } from '@qc/api-client';
import type { FeedbackImage } from '@qc/contracts';
import { useThemeToken } from '@qc/ui';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { blobToDataUrl } from './data-url';

const SIZE = 88;

/**
 * One feedback image: its bytes are fetched with the Authorization header as a Blob (never a token
 * in a URL, DESIGN §7) and shown as a data: URL of the type the API sniffed (the CSP has no `blob:`
 * images). The request is aborted when the thumbnail goes away; nothing outlives it.
 */
export function FeedbackImageThumb({ image, index }: { image: FeedbackImage; index: number }) {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchBlob(image.url, controller.signal)
      .then((blob) => blobToDataUrl(blob, image.mime))
      .then(
        (url) => {
          if (!controller.signal.aborted) setSrc(url);
        },
        () => {
          if (!controller.signal.aborted) setFailed(true);
        },
      );
    return () => controller.abort();
  }, [image.url, image.mime]);

  const alt = t('feedback_admin.image_alt', { index: index + 1 });
  const box = {
    width: SIZE,
    height: SIZE,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    border: `1px solid ${token.colorBorderSecondary}`,
    borderRadius: token.borderRadius,
    background: token.colorFillQuaternary,
    color: token.colorTextTertiary,
  } as const;

  if (failed) {
    return (
      <Tooltip title={t('feedback_admin.image_error')}>
        <span
          style={box}
          role="img"
          aria-label={`${alt} (${t('feedback_admin.image_error')})`}
          data-testid="feedback-image-error"
        >
          <PictureOutlined aria-hidden />
        </span>
      </Tooltip>
    );
  }
  if (!src) {
    return (
      <span style={box} data-testid="feedback-image-loading">
        <Spin size="small" />
      </span>
    );
  }
  return (
    <Image
      src={src}
      alt={alt}
      width={SIZE}
      height={SIZE}
      style={{ objectFit: 'cover', borderRadius: token.borderRadius }}
      data-testid="feedback-image"
    />
  );
}
