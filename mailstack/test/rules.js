'use strict';
// The console's Rspamd rules (filters, control-panel filters, system rules), saved as an admin
// saves them: through the api (POST/PATCH/DELETE /api/rspamd/...), signed in as its admin.

const ROUTE = {
  filter: (type) => `/api/rspamd/filters/${type}/`,
  apanel: () => '/api/rspamd/apanel-filters/',
  system: () => '/api/rspamd/system-rules/',
};

/**
 * @param {{request: (method: string, url: string, body?: object) => Promise<Response>}} api
 *   startRealApi()'s handle, signed in (login())
 */
function rulesClient(api) {
  async function http(method, url, body) {
    const res = await api.request(method, url, body);
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }
  const itemUrl = (kind, type, id) => `${ROUTE[kind](type)}${id}/`;

  return {
    /** Saves a new rule; resolves with its id. kind: filter (with type), apanel, system. */
    async create(kind, type, body) {
      return (await http('POST', ROUTE[kind](type), body)).id;
    },
    setEnabled: (kind, type, id, enabled) => http('PATCH', itemUrl(kind, type, id), { enabled }),
    remove: (kind, type, id) => http('DELETE', itemUrl(kind, type, id)),
  };
}

module.exports = { rulesClient };
