import { CommentOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import FloatButton from 'antd/es/float-button';
import Tooltip from 'antd/es/tooltip';
import { retryableLazy } from '@qc/ui';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The dialog (form, upload, its error mapping) is a chunk of its own, fetched on the first click.
const FeedbackDialog = retryableLazy(() => import(/* webpackChunkName: "feedback" */ './FeedbackDialog'));

/** The floating button's gutter at the content's right: 40 px, 16 px from the edge, 8 px of air. */
export const FEEDBACK_BUTTON_EDGE = 16;
export const FEEDBACK_BUTTON_AREA = FEEDBACK_BUTTON_EDGE + 40 + 8;

/**
 * Spec §2: the floating feedback button, bottom right of every protected page. Below the lg
 * breakpoint (a phone, a small tablet) it is the foot of the drawer's rail instead (`inDrawer`):
 * floating there, it lay over tags, cards and charts as the page scrolled under it (issue 23).
 * `expanded`: the drawer is open, the entry shows its label beside the icon.
 */
export function FeedbackButton({ inDrawer = false, expanded = false }: { inDrawer?: boolean; expanded?: boolean }) {
  const { t } = useTranslation('host');
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const label = t('feedback.button');
  const onClick = () => {
    setLoaded(true);
    setOpen(true);
  };
  return (
    <>
      {inDrawer ? (
        <Tooltip title={expanded ? null : label} placement="right">
          <Button
            type="text"
            block
            icon={<CommentOutlined aria-hidden />}
            aria-label={label}
            aria-haspopup="dialog"
            data-testid="feedback-button"
            data-placement="drawer"
            style={{ height: 40, justifyContent: expanded ? 'flex-start' : 'center' }}
            onClick={onClick}
          >
            {expanded ? label : null}
          </Button>
        </Tooltip>
      ) : (
        <FloatButton
          type="primary"
          icon={<CommentOutlined aria-hidden />}
          aria-label={label}
          tooltip={label}
          aria-haspopup="dialog"
          data-testid="feedback-button"
          data-placement="float"
          style={{ insetInlineEnd: FEEDBACK_BUTTON_EDGE, insetBlockEnd: 24 }}
          onClick={onClick}
        />
      )}
      {loaded ? (
        <Suspense fallback={null}>
          <FeedbackDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
