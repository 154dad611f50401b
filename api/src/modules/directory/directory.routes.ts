import {
  ApiError,
  DirectorySettings,
  DirectoryTestRequest,
  DirectoryTestResult,
  type DirectorySettings as Settings,
} from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import { requireAuthHook, requireRoleHook } from '../auth/authenticate';
import { DirectoryUnavailableError } from './directory';
import { planDirectoryAccount } from './directory-accounts';
import { directoryUnavailable } from './directory-common';

const NOT_CONFIGURED: Settings = {
  enabled: false,
  url: null,
  starttls: false,
  ca_file: null,
  bind_dn: null,
  bind_password_set: false,
  user_base: null,
  user_filter: null,
  alias_attrs: [],
  group_base: null,
  admin_group: null,
  domain_admin_group: null,
  timeout_ms: 0,
  pool_size: 0,
};

/** Admin → Directory (issue 31): the settings in force and a dry run of one person's sign-in. */
export const directoryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const security = [{ bearer: [] }];
  const adminOnly = [requireAuthHook(ctx), requireRoleHook('admin')];
  const tags = ['directory'];

  app.get(
    '/api/admin/directory/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'The directory (LDAP / AD) settings in force (admin; secrets never shown)',
        security,
        response: { 200: DirectorySettings, 401: ApiError, 403: ApiError },
      },
    },
    async () => ctx.directory?.settings() ?? NOT_CONFIGURED,
  );

  app.post(
    '/api/admin/directory/test/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Look one person up and show what the console would make of them (admin; changes nothing)',
        description:
          'Binds with the service account, searches the login with QC_LDAP_USER_FILTER and maps the entry: ' +
          'addresses kept or not (outside the console domains, owned by another account), role, domain, and ' +
          'whether a sign-in would create or update an account or be refused. No password is checked. ' +
          '409 `directory_not_configured`; 503 `directory_unavailable`.',
        security,
        body: DirectoryTestRequest,
        response: {
          200: DirectoryTestResult,
          400: ApiError,
          401: ApiError,
          403: ApiError,
          409: ApiError,
          503: ApiError,
        },
      },
    },
    async (request) => {
      const { directory } = ctx;
      if (!directory) throw new HttpError(409, 'directory_not_configured', 'No directory is configured (QC_LDAP_URL).');
      let person;
      try {
        person = await directory.find(request.body.login);
      } catch (err) {
        if (err instanceof DirectoryUnavailableError) throw directoryUnavailable();
        throw err;
      }
      if (!person) {
        return {
          outcome: 'not_found' as const,
          refusal: null,
          dn: null,
          primary: null,
          addresses: [],
          groups: [],
          role: null,
          domain: null,
          disabled: false,
          user_id: null,
        };
      }
      const plan = await planDirectoryAccount(ctx.db, directory, person);
      return {
        outcome: plan.refusal ? ('refused' as const) : plan.existing ? ('update' as const) : ('create' as const),
        refusal: plan.refusal,
        dn: person.dn,
        primary: plan.primary,
        addresses: plan.addresses,
        groups: person.groups,
        role: plan.role,
        domain: plan.domain?.name ?? null,
        disabled: person.disabled,
        user_id: plan.existing?.id ?? null,
      };
    },
  );
};
