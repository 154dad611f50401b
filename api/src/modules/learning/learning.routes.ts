import { ApiError, LearnRequest, LearnResponse, NotSpamRequest, NotSpamResponse } from '@qc/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { createBudgets } from '../../lib/budget';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import type { Actor } from '../quarantine/quarantine.service';
import { learnMessage, notSpam, type LearningDeps } from './learning.service';

const security = [{ bearer: [] }];
const tags = ['quarantine'];
const IdParams = z.object({ id: z.string().min(1).max(64) });
const actorOf = (request: FastifyRequest): Actor => ({ auth: currentAuth(request), ip: request.ip ?? null });

export const learningRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const onRequest = requireAuthHook(ctx);
  const deps: LearningDeps = { db: ctx.db, config: ctx.config, budgets: createBudgets(ctx.db, ctx.config.budgets) };

  app.post(
    '/api/quarantine/:id/learn/',
    {
      onRequest,
      schema: {
        tags,
        summary: "Teach Rspamd's Bayes classifier this e-mail as spam or ham",
        description:
          'Roles of QC_LEARN_ROLES only (default: every role; else 403 `learning_not_allowed`, nothing looked ' +
          'up; the detail’s `can_learn` says it beforehand). Any e-mail the caller may see (else 404 ' +
          '`email_not_found`). The original bytes go to Rspamd’s controller (QC_RSPAMD_CONTROLLER_URL, ' +
          '`Password` header QC_RSPAMD_CONTROLLER_PASSWORD, 10 s). 200 with Rspamd’s answer; `already` (not ' +
          'sent) when the e-mail is learned that way now, or when the caller learned it that way before (one ' +
          'learn per e-mail, class and user), or when Rspamd says it already has it. Learning the other way ' +
          'after a first learn is sent: Rspamd relearns. 409 `learn_in_progress`: the same learn of the same ' +
          'user is being sent. Each learn sent spends the caller’s budget: beyond QC_BUDGET_LEARN per minute or ' +
          'QC_BUDGET_LEARN_DAILY per day, 429 `rate_limited` with Retry-After, nothing sent. ' +
          'Recorded in the history (learn_spam / learn_ham, failures with their code). 502 `rspamd_unavailable` ' +
          '(no connection or no answer; the kind of failure only, e.g. ECONNREFUSED) / `rspamd_refused` (its answer in the detail): nothing recorded as learned. ' +
          '410 `raw_purged`; 503 `learn_not_configured`.',
        security,
        params: IdParams,
        body: LearnRequest,
        response: {
          200: LearnResponse,
          400: ApiError,
          401: ApiError,
          403: ApiError,
          404: ApiError,
          409: ApiError,
          410: ApiError,
          429: ApiError,
          502: ApiError,
          503: ApiError,
        },
      },
    },
    async (request) => learnMessage(deps, actorOf(request), request.params.id, request.body.as, request.log),
  );

  app.post(
    '/api/quarantine/:id/not-spam/',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Not spam: release, learn as ham, and whitelist the sender',
        description:
          'Three independent steps, each with its outcome (a failed step never stops the others): the release ' +
          '(as POST …/release/, for the recipients the caller acts for, spending QC_BUDGET_RELEASES: beyond it the ' +
          'step is `rate_limited` with `retry_after`), the learn as ham (as POST …/learn/: ' +
          'its refusals, e.g. `learning_not_allowed` or `rate_limited` with `retry_after`, are the step’s), and ' +
          'with `allow_sender` the whitelist entry for the displayed sender (header From): `me` the caller’s own ' +
          'list, `domain` a domain_admin’s domain or, for an admin, the one console domain of the recipients ' +
          '(else `list_owner_ambiguous`); already whitelisted counts as ok (`list_exists`). `others`: the other ' +
          'held e-mails from that sender the caller may see (ids newest first, at most 200). 200 once the e-mail ' +
          'is the caller’s; 404 otherwise.',
        security,
        params: IdParams,
        body: NotSpamRequest,
        response: { 200: NotSpamResponse, 400: ApiError, 401: ApiError, 404: ApiError },
      },
    },
    async (request) => notSpam(deps, actorOf(request), request.params.id, request.body, request.log),
  );
};
