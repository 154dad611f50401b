/**
 * @qc/contracts — the one description of the API, shared by the api (validation, OpenAPI)
 * and every front-end app (typed calls). Isomorphic: no DOM and no Node imports here.
 */
export * from './common';
export * from './addresses';
export * from './control-chars';
export * from './errors';
export * from './auth';
export * from './users';
export * from './dashboard';
export * from './remotes';
export * from './mfa';
export * from './profile';
export * from './preferences';
export * from './feedback';
export * from './quarantine';
export * from './history';
export * from './bulk';
export * from './statistics';
export * from './admin-users';
export * from './domains';
export * from './rspamd';
export * from './lists';
export * from './learning';
export * from './haraka-logs';
export * from './notifications';
export * from './directory';
export * from './oidc';
