import type { Role } from '@qc/contracts';
import { roleSatisfies } from '@qc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { forbidden, unauthorized } from '../../lib/http-error';
import { authenticate, type AuthContext } from './auth.service';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/**
 * Sets request.auth or answers 401. Used as onRequest: before the body and query are validated, so
 * an anonymous caller learns nothing of a route's schema, and an expired token always gets its 401.
 */
export function requireAuthHook(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.auth = await authenticate(ctx, request.headers.authorization);
  };
}

/** For role-gated routes (spec §6 semantics); use after requireAuthHook, in the same hook list. */
export function requireRoleHook(role: Role) {
  return async (request: FastifyRequest) => {
    if (!roleSatisfies(currentAuth(request).user.role, role)) throw forbidden();
  };
}

export function currentAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized('not_authenticated', 'Authentication credentials were not provided.');
  return request.auth;
}
