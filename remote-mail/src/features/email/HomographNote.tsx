import { WarningOutlined } from '@ant-design/icons';
import Flex from 'antd/es/flex';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { VisuallyHidden } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { revealBidi } from './bidi';
import { homographOfAddress, homographOfUrl } from './homograph';

/**
 * Beside a sender or URL whose domain may imitate another (homograph.ts): a warning tag, why in its
 * tooltip (and for a screen reader), and the domain's other form: the A-label (`xn--…`) beside a
 * Unicode name, the Unicode name beside an A-label (senders are stored as A-label). Nothing otherwise.
 */
export function HomographNote(props: { address: string } | { url: string }) {
  const { t } = useTranslation('mail');
  const shown = 'address' in props ? props.address : props.url;
  const found = 'address' in props ? homographOfAddress(props.address) : homographOfUrl(props.url);
  if (!found) return null;
  const other = found.ascii && !shown.toLowerCase().includes(found.ascii) ? found.ascii : found.unicode;
  const help = t(`email.homograph.${found.reason}_help`, { ascii: found.ascii ?? found.unicode });
  return (
    <Flex
      component="span"
      wrap
      gap={4}
      align="center"
      style={{ display: 'inline-flex', maxWidth: '100%', minWidth: 0, verticalAlign: 'middle' }}
      data-testid="homograph-note"
    >
      <Tag
        color="warning"
        icon={<WarningOutlined aria-hidden />}
        title={help}
        style={{ marginInlineEnd: 0 }}
        data-testid="homograph-tag"
      >
        {t(`email.homograph.${found.reason}`)}
        <VisuallyHidden>{` (${help})`}</VisuallyHidden>
      </Tag>
      <Typography.Text code style={{ fontSize: 12, overflowWrap: 'anywhere' }} data-testid="homograph-other-form">
        {revealBidi(other)}
      </Typography.Text>
    </Flex>
  );
}
