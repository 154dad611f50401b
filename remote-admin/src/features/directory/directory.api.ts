import { api } from '@qc/api-client';
import type { DirectorySettings, DirectoryTestRequest, DirectoryTestResult } from './directory.types';

/**
 * Calls of Admin → Directory (issue 31, admin only) through the app's api client, like
 * users.api.ts. Failures reject with ky's HTTPError (read them with readApiError()).
 */

/** GET /api/admin/directory/: the LDAP settings in force (secrets never sent: `bind_password_set`). */
export function getDirectorySettings(signal?: AbortSignal): Promise<DirectorySettings> {
  return api.get('admin/directory/', signal ? { signal } : {}).json<DirectorySettings>();
}

/**
 * POST /api/admin/directory/test/: looks one login up and says what the console would make of it,
 * creating nothing. 503 directory_unavailable, 409 directory_not_configured, 400 validation_error.
 */
export function testDirectoryLogin(body: DirectoryTestRequest): Promise<DirectoryTestResult> {
  return api.post('admin/directory/test/', { json: body }).json<DirectoryTestResult>();
}
