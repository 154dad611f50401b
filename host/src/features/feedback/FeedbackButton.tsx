import { CommentOutlined } from '@ant-design/icons';
import FloatButton from 'antd/es/float-button';
import { retryableLazy } from '@qc/ui';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The dialog (form, upload, its error mapping) is a chunk of its own, fetched on the first click.
const FeedbackDialog = retryableLazy(() => import(/* webpackChunkName: "feedback" */ './FeedbackDialog'));

/** Spec §2: the floating feedback button, bottom right of every protected page. */
export function FeedbackButton() {
  const { t } = useTranslation('host');
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const label = t('feedback.button');
  return (
    <>
      <FloatButton
        type="primary"
        icon={<CommentOutlined aria-hidden />}
        aria-label={label}
        tooltip={label}
        aria-haspopup="dialog"
        data-testid="feedback-button"
        style={{ insetInlineEnd: 24, insetBlockEnd: 24 }}
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      />
      {loaded ? (
        <Suspense fallback={null}>
          <FeedbackDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
