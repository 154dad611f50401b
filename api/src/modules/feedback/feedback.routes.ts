import multipart from '@fastify/multipart';
import {
  ApiError,
  FEEDBACK_MESSAGES,
  FeedbackCreated,
  FeedbackFields,
  FeedbackList,
  FeedbackListQuery,
} from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { sendDownload } from '../../lib/download';
import { HttpError } from '../../lib/http-error';
import { withinBodyLimit } from '../../lib/multipart';
import { createAttemptCounter } from '../auth/attempt-counter';
import { throwIfLimited } from '../auth/attempt-limiter';
import { currentAuth, requireAuthHook, requireRoleHook } from '../auth/authenticate';
import {
  checkDailyQuota,
  createFeedback,
  FEEDBACK_MAX_BODY_BYTES,
  FEEDBACK_MULTIPART_LIMITS,
  formTooLarge,
  feedbackImage,
  feedbackPage,
  readFeedbackForm,
} from './feedback.service';

/** The form, for the OpenAPI document: the handler reads the multipart parts and checks them itself. */
const FeedbackForm = FeedbackFields.extend({
  image0: z.file().optional(),
  image1: z.file().optional(),
  image2: z.file().optional(),
});

export const feedbackRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Encapsulated: these limits apply to this plugin's routes only.
  await app.register(multipart, { limits: FEEDBACK_MULTIPART_LIMITS, throwFileSizeLimit: true });
  const perUser = createAttemptCounter(ctx.db, { name: 'feedback', ...ctx.config.feedbackRate });
  const security = [{ bearer: [] }];

  app.post(
    '/api/feedback/',
    {
      // The body schema documents the form; its rules are applied by readFeedbackForm, not here.
      attachValidation: true,
      onRequest: [
        requireAuthHook(ctx),
        // Authenticated and counted before the body is read: a flood is refused without parsing uploads.
        async (request) => {
          const userId = currentAuth(request).user.user_id;
          const wait = await perUser(userId);
          throwIfLimited([wait], 'Too much feedback sent. Try again later.');
          await checkDailyQuota(ctx.db, userId, ctx.config.feedbackDailyMax);
          // A declared length over any valid form's: refused before a byte of it is read.
          if (Number(request.headers['content-length'] ?? 0) > FEEDBACK_MAX_BODY_BYTES) throw formTooLarge();
        },
      ],
      schema: {
        tags: ['feedback'],
        summary: 'Send feedback (multipart form)',
        description:
          'multipart/form-data: `type` (bug|suggestion|question|other), `message` (10–5000 characters), ' +
          '`email` (optional), files `image0`..`image2` (each ≤ 5 MB; PNG, JPEG, GIF or WebP by content). ' +
          '400 with `errors` per field; a file over 5 MB is 413 `file_too_large` (the connection is closed at ' +
          'the limit); a file whose declared type contradicts its bytes is 415. Images are decoded and ' +
          're-encoded (metadata dropped). 429 beyond QC_FEEDBACK_RATE_MAX per window or ' +
          'QC_FEEDBACK_DAILY_MAX per 24 hours.',
        consumes: ['multipart/form-data'],
        body: FeedbackForm,
        security,
        response: {
          201: FeedbackCreated,
          400: ApiError,
          401: ApiError,
          413: ApiError,
          415: ApiError,
          429: ApiError,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new HttpError(415, 'unsupported_media_type', 'Send the feedback as multipart/form-data.');
      }
      const form = await withinBodyLimit(
        request.raw,
        FEEDBACK_MAX_BODY_BYTES,
        () => readFeedbackForm(request.parts()),
        formTooLarge,
      );
      await createFeedback(ctx.db, currentAuth(request).user.user_id, form, ctx.config.feedbackDailyMax);
      return reply.code(201).send({ message: FEEDBACK_MESSAGES.thanks });
    },
  );

  const adminOnly = [requireAuthHook(ctx), requireRoleHook('admin')];

  app.get(
    '/api/feedback/',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['feedback'],
        summary: 'Feedback received, newest first (admin)',
        security,
        querystring: FeedbackListQuery,
        response: { 200: FeedbackList, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => feedbackPage(ctx.db, request.query.cursor, request.query.page_size),
  );

  app.get(
    '/api/feedback/:id/images/:imageId/',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['feedback'],
        summary: 'One feedback image, as a download (admin)',
        description:
          'Served with its sniffed type, as an attachment, never as active content; decoded and re-encoded on ' +
          'every read (metadata dropped). 415 when the stored bytes are not a readable image of that type.',
        security,
        params: z.object({ id: z.string().max(64), imageId: z.string().max(64) }),
        response: {
          // Sent as a Buffer: Fastify does not serialize it.
          200: {
            description: 'The image bytes, with their sniffed type',
            content: Object.fromEntries(
              ['image/png', 'image/jpeg', 'image/gif', 'image/webp'].map((type) => [type, { schema: z.file() }]),
            ),
          },
          401: ApiError,
          403: ApiError,
          404: ApiError,
          415: ApiError,
        },
      },
    },
    async (request, reply) => {
      const image = await feedbackImage(ctx.db, request.params.id, request.params.imageId);
      return sendDownload(reply, { type: image.mime, disposition: image.disposition, data: image.data });
    },
  );
};
