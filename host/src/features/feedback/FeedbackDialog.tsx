import { PictureOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Result from 'antd/es/result';
import Typography from 'antd/es/typography';
import Upload, { type RcFile, type UploadFile } from 'antd/es/upload';
import type { FeedbackType } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FEEDBACK_TYPES,
  feedbackErrorMessage,
  IMAGE_TYPES,
  MAX_FILE_BYTES,
  MAX_FILE_MB,
  MAX_FILES,
  MESSAGE_MAX,
  MESSAGE_MIN,
} from './feedback-rules';
import { blobToDataUrl } from './data-url';
import { useSendFeedback } from './feedback.queries';
import { useChoiceGroup } from '@qc/ui';

/** Spec §4: the confirmation stays 4 s, the dialog closes after 2 s; an error notice stays 4 s. */
export const CONFIRMATION_MS = 4_000;
export const CLOSE_AFTER_MS = 2_000;
export const ERROR_NOTICE_MS = 4_000;

export type FeedbackStatus = 'open' | 'submitting' | 'success' | 'error';
type ImageProblem = 'not_image' | 'too_large' | 'too_many';

interface FeedbackValues {
  type?: FeedbackType;
  message: string;
  email?: string;
}

function imageProblem(file: { type?: string; size?: number }): ImageProblem | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type ?? '')) return 'not_image';
  if ((file.size ?? 0) > MAX_FILE_BYTES) return 'too_large';
  return null;
}

/**
 * The feedback dialog (spec §3–§5, §8, §9; lazy chunk): type, message, optional e-mail, up to 3
 * images (checked here, never uploaded on their own: they go with the form). States: open,
 * submitting, success (confirmation, then the dialog closes), error (notice, the form stays).
 */
export default function FeedbackDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation('host');
  const choiceGroup = useChoiceGroup();
  const [form] = Form.useForm<FeedbackValues>();
  const send = useSendFeedback();
  const [status, setStatus] = useState<FeedbackStatus>('open');
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [fileErrors, setFileErrors] = useState<ImageProblem[]>([]);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );

  const reset = () => {
    form.resetFields();
    setFiles([]);
    setFileErrors([]);
    setStatus('open');
  };

  // Called once per file; a multiple selection is one batch, checked in order against what is kept.
  const beforeUpload = (file: RcFile, batch: RcFile[]) => {
    const position = batch.indexOf(file);
    let problem = imageProblem(file);
    if (!problem) {
      const acceptedBefore = batch.slice(0, Math.max(position, 0)).filter((f) => !imageProblem(f)).length;
      // `files` is the list before this selection (the batch is added once every file was checked).
      if (files.length + acceptedBefore >= MAX_FILES) problem = 'too_many';
    }
    setFileErrors((prev) => {
      const base = position <= 0 ? [] : prev; // a new selection starts clean
      return problem && !base.includes(problem) ? [...base, problem] : base;
    });
    return problem ? Upload.LIST_IGNORE : false; // false: kept in the list, never uploaded alone
  };

  const fileMessage = (p: ImageProblem) =>
    p === 'not_image'
      ? t('feedback.validation.not_image')
      : p === 'too_large'
        ? t('feedback.validation.too_large', { size: MAX_FILE_MB })
        : t('feedback.validation.too_many', { max: MAX_FILES });

  const onFinish = async (values: FeedbackValues) => {
    if (!values.type) return; // the rule already said so
    setStatus('submitting');
    const email = values.email?.trim();
    try {
      await send.mutateAsync({
        type: values.type,
        message: values.message.trim(),
        ...(email ? { email } : {}),
        images: files.map((f) => f.originFileObj).filter((f): f is RcFile => !!f),
      });
      setStatus('success');
      notify({ type: 'success', title: t('feedback.success'), durationMs: CONFIRMATION_MS });
      closeTimer.current = setTimeout(() => {
        closeTimer.current = null;
        onClose();
        reset();
      }, CLOSE_AFTER_MS);
    } catch (error) {
      setStatus('error');
      notify({
        type: 'error',
        title: feedbackErrorMessage(error, t, i18n.getFixedT('en', 'host')),
        durationMs: ERROR_NOTICE_MS,
      });
    }
  };

  const busy = status === 'submitting';
  const done = status === 'success';

  return (
    <Modal
      open={open}
      title={t('feedback.title')}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      mask={{ closable: !busy }}
      keyboard={!busy}
      width={560}
      footer={
        done
          ? null
          : [
              <Button key="cancel" onClick={onClose} disabled={busy}>
                {t('feedback.cancel')}
              </Button>,
              <Button
                key="submit"
                type="primary"
                loading={busy}
                onClick={() => form.submit()}
                data-testid="feedback-submit"
              >
                {t('feedback.submit')}
              </Button>,
            ]
      }
    >
      <div data-testid="feedback-dialog" data-status={status}>
        {done ? (
          <Result status="success" title={t('feedback.success')} role="status" data-testid="feedback-success" />
        ) : null}
        {/* Kept mounted (hidden) on success: its fields are reset when the dialog closes. */}
        <div hidden={done}>
          <Form<FeedbackValues> form={form} name="feedback" layout="vertical" onFinish={onFinish} disabled={busy}>
            <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
              {t('feedback.description')}
            </Typography.Paragraph>
            <Form.Item
              name="type"
              label={t('feedback.type')}
              required
              rules={[{ required: true, message: t('feedback.validation.type') }]}
            >
              <Radio.Group
                {...choiceGroup}
                aria-label={t('feedback.type')}
                data-testid="feedback-type"
                options={FEEDBACK_TYPES.map((value) => ({ value, label: t(`feedback.types.${value}`) }))}
              />
            </Form.Item>
            <Form.Item
              name="message"
              label={t('feedback.message')}
              required
              validateFirst
              rules={[
                { required: true, whitespace: true, message: t('feedback.validation.message_required') },
                {
                  validator: (_rule, value: unknown) =>
                    typeof value === 'string' && value.trim().length < MESSAGE_MIN
                      ? Promise.reject(new Error(t('feedback.validation.message_too_short', { min: MESSAGE_MIN })))
                      : Promise.resolve(),
                },
                { max: MESSAGE_MAX, message: t('feedback.validation.message_too_long', { max: MESSAGE_MAX }) },
              ]}
            >
              <Input.TextArea
                rows={5}
                showCount
                maxLength={MESSAGE_MAX}
                placeholder={t('feedback.message_placeholder')}
                data-testid="feedback-message"
              />
            </Form.Item>
            <Form.Item
              name="email"
              label={t('feedback.email')}
              extra={t('feedback.email_help')}
              rules={[{ type: 'email', message: t('feedback.validation.email') }]}
            >
              <Input type="email" autoComplete="email" data-testid="feedback-email" />
            </Form.Item>
            <Form.Item
              label={t('feedback.images')}
              extra={t('feedback.images_help', { max: MAX_FILES, size: MAX_FILE_MB })}
              {...(fileErrors.length
                ? {
                    validateStatus: 'error' as const,
                    help: <span data-testid="feedback-images-error">{fileErrors.map(fileMessage).join(' ')}</span>,
                  }
                : {})}
            >
              <Upload
                accept={IMAGE_TYPES.join(',')}
                multiple
                listType="picture"
                fileList={files}
                beforeUpload={beforeUpload}
                // Thumbnails as data: URLs: the CSP allows no blob: images (antd's default uses one).
                previewFile={(file) => blobToDataUrl(file).catch(() => '')}
                onChange={({ fileList }) => setFiles(fileList.slice(0, MAX_FILES))}
                data-testid="feedback-images"
              >
                <Button icon={<PictureOutlined aria-hidden />} data-testid="feedback-add-image">
                  {t('feedback.add_image')}
                </Button>
              </Upload>
            </Form.Item>
          </Form>
        </div>
      </div>
    </Modal>
  );
}
