--[[
Quarantine Console (issue 17): control-panel (apanel) filters and system rules, kept in the
console and fetched from its api as two JSON maps (GET/HEAD <QC_MAPS_URL>/apanel-filters.json and
/system-rules.json, api/src/modules/rspamd-maps). Debian's rules/rspamd.lua loads this file from
LOCAL_CONFDIR/local.d; shared by the loopback stack (mailstack/index.js) and docker-compose.

QC_MAPS_URL comes from rspamd's command line (--var=QC_MAPS_URL=http://127.0.0.1:<port>/api/rspamd/maps:
the maps proxy, which adds the secret), as in local.d/multimap.conf.

A prefilter (QC_RULES) checks every message:
- an apanel filter matches when its `from` matches the envelope sender and its `to` every envelope
  recipient (a null pattern: anyone): the action is the whole message's;
- a system rule matches when every pattern it has matches: from (sender), to (every recipient),
  subject (the decoded Subject) and ip (the client address, an IP or a CIDR).
Patterns arrive compiled by the api: `/regex/flags` strings (addresses are compared lower-cased).
Of all matches the strictest action wins (reject > discard > soft_reject > quarantine > greylist >
add_header > accept); it is forced (set_pre_result: the filters of multimap.conf are then not run;
greylist and add_header only as a floor, 'least', so the message is still scored)
and the symbol QC_APANEL_<ACTION> or QC_SYSTEM_<ACTION> is inserted with the matching rules'
tokens (apanel:<id>, system:<id>) as options. haraka-plugin-qconsole carries the action out
(quarantine, discard, greylist, ...: haraka-plugin-rspamd only knows reject and soft reject).
A map that cannot be read keeps the rules loaded before (the api answers 5xx, never a partial map).
]]--

local rspamd_logger = require "rspamd_logger"
local rspamd_regexp = require "rspamd_regexp"
local rspamd_ip = require "rspamd_ip"
local ucl = require "ucl"

local N = 'qconsole'
local base = (rspamd_env or {}).QC_MAPS_URL

-- Rspamd's action names, and which action wins when several rules match.
local RSPAMD_ACTION = {
  reject = 'reject', discard = 'discard', soft_reject = 'soft reject', quarantine = 'quarantine',
  greylist = 'greylist', add_header = 'add header', accept = 'no action',
}
local RANK = { reject = 7, discard = 6, soft_reject = 5, quarantine = 4, greylist = 3, add_header = 2, accept = 1 }
local MESSAGE = {
  reject = 'Refused by local policy',
  soft_reject = 'Deferred by local policy, try again later',
  greylist = 'Greylisted, try again later',
}
local LEAST = { greylist = true, add_header = true }
local KINDS = {
  APANEL = { 'reject', 'accept', 'add_header', 'discard', 'quarantine' },
  SYSTEM = { 'reject', 'add_header', 'greylist', 'soft_reject', 'accept' },
}

local rules = { APANEL = {}, SYSTEM = {} }

local function compile(pattern, token)
  if type(pattern) ~= 'string' then return nil, true end -- null: no condition
  local re = rspamd_regexp.create(pattern)
  if not re then
    rspamd_logger.errx(rspamd_config, '%s: %s: cannot compile %s, rule skipped', N, token, pattern)
    return nil, false
  end
  return re, true
end

local function compile_ip(pattern, token)
  if type(pattern) ~= 'string' then return nil, true end
  local addr, bits = pattern:match('^([^/]+)/?(%d*)$')
  local ip = addr and rspamd_ip.from_string(addr)
  if not ip or not ip:is_valid() then
    rspamd_logger.errx(rspamd_config, '%s: %s: bad ip %s, rule skipped', N, token, pattern)
    return nil, false
  end
  local max = ip:get_version() == 6 and 128 or 32
  bits = tonumber(bits) or max
  return { net = ip:apply_mask(bits):to_string(), bits = bits, version = ip:get_version() }, true
end

-- One rule of a JSON map, compiled; nil when a pattern does not compile (logged).
local function compile_rule(raw)
  local token = tostring(raw.token)
  if not RANK[raw.action] then
    rspamd_logger.errx(rspamd_config, '%s: %s: unknown action %s, rule skipped', N, token, raw.action)
    return nil
  end
  local rule = { token = token, action = raw.action }
  local ok
  for _, field in ipairs({ 'from', 'to', 'subject' }) do
    rule[field], ok = compile(raw[field], token)
    if not ok then return nil end
  end
  rule.ip, ok = compile_ip(raw.ip, token)
  if not ok then return nil end
  return rule
end

local function load_json_map(kind, key)
  return function(data)
    local parser = ucl.parser()
    local res, err = parser:parse_string(tostring(data))
    local obj = res and parser:get_object()
    if not res or type(obj) ~= 'table' or type(obj[key]) ~= 'table' then
      rspamd_logger.errx(rspamd_config, '%s: %s map not understood (%s): keeping %s rules',
        N, kind, err or 'no ' .. key, #rules[kind])
      return
    end
    local loaded = {}
    for _, raw in ipairs(obj[key]) do
      local rule = type(raw) == 'table' and compile_rule(raw)
      if rule then table.insert(loaded, rule) end
    end
    rules[kind] = loaded
    rspamd_logger.infox(rspamd_config, '%s: %s rules: %s (list version %s)', N, kind, #loaded, obj.version)
  end
end

local function ip_matches(cond, ip)
  if not ip or not ip:is_valid() or ip:get_version() ~= cond.version then return false end
  return ip:apply_mask(cond.bits):to_string() == cond.net
end

-- A rule decides for the whole message (Rspamd gives one verdict), so its `to` must match every
-- recipient: a filter for bob must not discard or refuse carol's copy of the same message.
local function all_match(re, values)
  if #values == 0 then return false end
  for _, v in ipairs(values) do
    if not re:match(v) then return false end
  end
  return true
end

local function matches(rule, msg)
  if rule.from and not rule.from:match(msg.sender) then return false end
  if rule.to and not all_match(rule.to, msg.rcpts) then return false end
  if rule.subject and not (msg.subject and rule.subject:match(msg.subject)) then return false end
  if rule.ip and not ip_matches(rule.ip, msg.ip) then return false end
  return true
end

local function qc_rules(task)
  if #rules.APANEL == 0 and #rules.SYSTEM == 0 then return end
  local from = task:get_from('smtp')
  local msg = {
    sender = (from and from[1] and from[1].addr or ''):lower(),
    rcpts = {},
    subject = task:get_subject(),
    ip = task:get_from_ip(),
  }
  for _, r in ipairs(task:get_recipients('smtp') or {}) do
    table.insert(msg.rcpts, (r.addr or ''):lower())
  end

  local best, found = nil, {}
  for kind, list in pairs(rules) do
    for _, rule in ipairs(list) do
      if matches(rule, msg) then
        if not best or RANK[rule.action] > RANK[best] then best = rule.action end
        found[kind] = found[kind] or {}
        found[kind][rule.action] = found[kind][rule.action] or {}
        table.insert(found[kind][rule.action], rule.token)
      end
    end
  end
  if not best then return end
  for kind, by_action in pairs(found) do
    if by_action[best] then
      task:insert_result(string.format('QC_%s_%s', kind, best:upper()), 1.0, by_action[best])
    end
  end
  local message = MESSAGE[best] or ('Matched ' .. best)
  if best == 'soft_reject' then
    -- haraka-plugin-rspamd answers a soft reject itself, with this text: name the rules in it.
    local tokens = {}
    for _, by_action in pairs(found) do
      for _, t in ipairs(by_action[best] or {}) do table.insert(tokens, t) end
    end
    message = string.format('%s (%s)', message, table.concat(tokens, ', '))
  end
  if LEAST[best] then
    -- At least this action, but the scan goes on: spam that is greylisted or tagged is still scored
    -- (and quarantined or refused by its score), instead of passing unscanned.
    task:set_pre_result(RSPAMD_ACTION[best], message, N, nil, nil, 'least')
  else
    task:set_pre_result(RSPAMD_ACTION[best], message, N)
  end
end

--[[
Whitelists and blacklists (issue 18): GET <QC_MAPS_URL>/sender-lists.json,
{"entries": [[owner, sender, "w"|"b", id], ...]} with owner a recipient address, "@<domain>" or "*"
and sender an address or "@<domain>" (all lower case, A-label domains). For each SMTP recipient the
most specific owner that has an entry for this sender wins (the recipient, then its domain, then
"*"), whatever the kind; within one owner a blacklist entry beats a whitelist one. The sender is the
envelope sender and the header From (each as address and @domain; a null envelope sender: the
header From only). Score-0 symbols QC_LIST_WHITELIST / QC_LIST_BLACKLIST carry the options
"<owner key>=list:<id>" (see qc_lists): haraka-plugin-qconsole decides per recipient from them. A
whitelist option also says what its entry matched (issue 29): ":env" the envelope sender, ":from:<org
domain>" the header From (its organisational domain); the plugin applies the whitelist only when that
identity is authenticated (SPF for the envelope, DKIM or DMARC for the From), which a prefilter
cannot know yet.
Run twice: a connection filter (before the message is parsed: the envelope sender only) and a
prefilter with ignore_passthrough (envelope and header From) that replaces the first answer. A
GTUBE body makes Rspamd skip every rule after parsing: the envelope answer is then what Haraka gets.
]]--
local sender_lists = {} -- owner -> sender -> { kind = 'w'|'b', id = '...' }

local function load_sender_lists(data)
  local parser = ucl.parser()
  local res, err = parser:parse_string(tostring(data))
  local obj = res and parser:get_object()
  if not res or type(obj) ~= 'table' or type(obj.entries) ~= 'table' then
    rspamd_logger.errx(rspamd_config, '%s: sender lists map not understood (%s): keeping the lists loaded before',
      N, err or 'no entries')
    return
  end
  local loaded, n = {}, 0
  for _, e in ipairs(obj.entries) do
    if type(e) == 'table' and type(e[1]) == 'string' and type(e[2]) == 'string'
        and (e[3] == 'w' or e[3] == 'b') and e[4] ~= nil then
      local owner = e[1]:lower()
      loaded[owner] = loaded[owner] or {}
      loaded[owner][e[2]:lower()] = { kind = e[3], id = tostring(e[4]) }
      n = n + 1
    end
  end
  sender_lists = loaded
  rspamd_logger.infox(rspamd_config, '%s: sender lists: %s entries (list version %s)', N, n, obj.version)
end

local rspamd_util = require "rspamd_util"

-- The sender as the lists name it: the envelope address and its @domain, then the header From
-- address and its @domain, each key once with where it came from: `env` (the envelope sender, which
-- SPF checks) and/or `org` (the header From's organisational domain, which DKIM and DMARC align
-- with; nil when the From has no domain).
local function sender_keys(task, envelope_only)
  local keys, by_key = {}, {}
  local function add(a, via)
    if type(a) ~= 'table' or type(a.addr) ~= 'string' or a.addr == '' then return end
    local domain = type(a.domain) == 'string' and a.domain:lower() or ''
    for _, k in ipairs({ a.addr:lower(), domain ~= '' and ('@' .. domain) or nil }) do
      local key = by_key[k]
      if not key then
        key = { key = k }
        by_key[k] = key
        table.insert(keys, key)
      end
      if via == 'env' then key.env = true end
      if via == 'mime' and domain ~= '' and not domain:find('[%s:]') then -- not an address literal
        key.org = key.org or (rspamd_util.get_tld(domain) or domain):lower()
      end
    end
  end
  local smtp = task:get_from('smtp')
  if smtp and smtp[1] then add(smtp[1], 'env') end
  if envelope_only then return keys end
  local mime = task:get_from('mime')
  if mime and mime[1] then add(mime[1], 'mime') end -- the first From address: the one a reader sees
  return keys
end

-- One owner's verdict on the sender: a blacklist entry on any key wins (envelope_black_only: on an
-- envelope key only); else every whitelist entry that matches, each with what it matched.
local function owner_hit(entries, keys, envelope_black_only)
  if not entries then return nil end
  local white = {}
  for _, k in ipairs(keys) do
    local e = entries[k.key]
    if e and e.kind == 'b' and (k.env or not envelope_black_only) then
      return { kind = 'b', id = e.id }
    end
    if e and e.kind == 'w' then table.insert(white, { id = e.id, env = k.env, org = k.org }) end
  end
  if envelope_black_only or #white == 0 then return nil end
  return { kind = 'w', matches = white }
end

local function by_envelope(hit)
  for _, m in ipairs(hit.matches) do
    if m.env then return true end
  end
  return false
end

-- The options of an owner's hit: a blacklist entry's `<key>=list:<id>`; one per whitelist entry, with
-- the identities it matched (`:env`, `:from:<org domain>`).
local function hit_options(key, hit)
  if hit.kind == 'b' then return { string.format('%s=list:%s', key, hit.id) } end
  local options = {}
  for _, m in ipairs(hit.matches) do
    table.insert(options, string.format('%s=list:%s%s%s', key, m.id, m.env and ':env' or '',
      m.org and (':from:' .. m.org) or ''))
  end
  return options
end

-- For each SMTP recipient the most specific owner that names the sender decides (the recipient's own
-- list, then their domain's, then the global one), except that a whitelist matched only by the
-- header From yields to a blacklist of the envelope sender at any level; after a whitelist, the
-- broader owners' entries follow (up to a blacklist), for Haraka to fall back on when the whitelist
-- is not applied (an unauthenticated sender, issue 29). The options name the
-- OWNER KEY that decided (`<address>|@<domain>|*=list:<entry id>`), once: Haraka resolves each
-- recipient the same way (its address, else its @domain, else *). Keyed per owner rather than per
-- recipient, a domain's blacklist on a mail to hundreds of its recipients is one option (Rspamd cuts
-- a symbol's options at 4 KB).
local function qc_lists(task, envelope_only)
  if next(sender_lists) == nil then return end
  local keys = sender_keys(task, envelope_only)
  if not envelope_only then
    -- The connection filter's envelope-only answer is replaced by the full one.
    task:remove_result('QC_LIST_WHITELIST')
    task:remove_result('QC_LIST_BLACKLIST')
  end
  if #keys == 0 then return end
  local found, seen, done = { w = {}, b = {} }, {}, {}
  for _, r in ipairs(task:get_recipients('smtp') or {}) do
    local rcpt = (r.addr or ''):lower()
    local domain = (r.domain or ''):lower()
    if rcpt ~= '' and not done[rcpt] then
      done[rcpt] = true
      local owners = { rcpt, domain ~= '' and ('@' .. domain) or nil, '*' }
      local hit, key, at
      for i, o in ipairs(owners) do
        hit = owner_hit(sender_lists[o], keys)
        if hit then
          key, at = o, i
          break
        end
      end
      if hit and hit.kind == 'w' and not by_envelope(hit) then
        for _, o in ipairs(owners) do
          local black = owner_hit(sender_lists[o], keys, true)
          if black then
            -- Keyed by the recipient: this departs from the owners' order.
            hit, key = black, rcpt
            break
          end
        end
      end
      local decided = {}
      if hit then table.insert(decided, { key = key, hit = hit }) end
      if hit and hit.kind == 'w' then
        -- A whitelist applies only to an authenticated sender, which only Haraka knows: the broader
        -- owners' entries follow it, up to the first blacklist, so that an entry that is not applied
        -- passes the decision on (a blacklist keeps matching either address).
        for i = at + 1, #owners do
          local next_hit = owner_hit(sender_lists[owners[i]], keys)
          if next_hit then
            table.insert(decided, { key = owners[i], hit = next_hit })
            if next_hit.kind == 'b' then break end
          end
        end
      end
      for _, d in ipairs(decided) do
        for _, option in ipairs(hit_options(d.key, d.hit)) do
          if not seen[option] then
            seen[option] = true
            table.insert(found[d.hit.kind], option)
          end
        end
      end
    end
  end
  if #found.w > 0 then task:insert_result('QC_LIST_WHITELIST', 1.0, found.w) end
  if #found.b > 0 then task:insert_result('QC_LIST_BLACKLIST', 1.0, found.b) end
end

if not base or base == '' then
  rspamd_logger.warnx(rspamd_config,
    '%s: QC_MAPS_URL is not set (rspamd --var=QC_MAPS_URL=...): control-panel filters and system rules are off', N)
  return
end

rspamd_config:add_map({
  url = base .. '/apanel-filters.json',
  type = 'callback',
  description = 'Quarantine Console control-panel filters',
  callback = load_json_map('APANEL', 'filters'),
})
rspamd_config:add_map({
  url = base .. '/system-rules.json',
  type = 'callback',
  description = 'Quarantine Console system rules',
  callback = load_json_map('SYSTEM', 'rules'),
})
rspamd_config:add_map({
  url = base .. '/sender-lists.json',
  type = 'callback',
  description = 'Quarantine Console whitelists and blacklists',
  callback = load_sender_lists,
})

rspamd_config:register_symbol({
  name = 'QC_LISTS_ENVELOPE',
  type = 'connfilter',
  callback = function(task) qc_lists(task, true) end,
  description = 'Quarantine Console whitelists and blacklists, per recipient, by the envelope sender',
})
local lists_id = rspamd_config:register_symbol({
  name = 'QC_LISTS',
  type = 'prefilter',
  flags = 'ignore_passthrough',
  priority = 20,
  callback = function(task) qc_lists(task, false) end,
  description = 'Quarantine Console whitelists and blacklists, per recipient',
})
for _, kind in ipairs({ 'WHITELIST', 'BLACKLIST' }) do
  local name = 'QC_LIST_' .. kind
  rspamd_config:register_symbol({ name = name, type = 'virtual', parent = lists_id })
  rspamd_config:set_metric_symbol({
    name = name, score = 0.0, group = N,
    description = string.format('Quarantine Console %s: options <recipient>=list:<entry id>', kind:lower()),
  })
end

local id = rspamd_config:register_symbol({
  name = 'QC_RULES',
  type = 'prefilter',
  callback = qc_rules,
  description = 'Quarantine Console control-panel filters and system rules',
})
for kind, actions in pairs(KINDS) do
  for _, action in ipairs(actions) do
    local name = string.format('QC_%s_%s', kind, action:upper())
    rspamd_config:register_symbol({ name = name, type = 'virtual', parent = id })
    rspamd_config:set_metric_symbol({
      name = name, score = 0.0, group = N,
      description = string.format('Quarantine Console %s: %s', kind == 'APANEL' and 'control-panel filter' or 'system rule', action),
    })
  end
end
