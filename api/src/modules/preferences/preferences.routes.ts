import { ApiError, PreferencesUpdate, StoredPreferences } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { getPreferences, savePreferences } from './preferences.service';

export const preferencesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Authentication first (onRequest): an anonymous caller gets 401 whatever its body.
  const authed = { onRequest: requireAuthHook(ctx) };
  const security = [{ bearer: [] }];

  app.get(
    '/api/users/me/preferences/',
    {
      ...authed,
      schema: {
        tags: ['users'],
        summary: 'The signed-in user’s preferences (defaults until saved)',
        security,
        response: { 200: StoredPreferences, 401: ApiError },
      },
    },
    async (request) => getPreferences(ctx.db, currentAuth(request).user.user_id),
  );

  app.put(
    '/api/users/me/preferences/',
    {
      ...authed,
      schema: {
        tags: ['users'],
        summary: 'Save the signed-in user’s preferences (both fields)',
        security,
        body: PreferencesUpdate,
        response: { 200: StoredPreferences, 400: ApiError, 401: ApiError },
      },
    },
    async (request) => savePreferences(ctx.db, currentAuth(request).user.user_id, request.body),
  );
};
