/**
 * Every `code` an API error can carry (ApiError.code). `detail` is English for logs and tools;
 * the client shows its own translated text chosen by this code.
 */
export const ERROR_CODES = [
  'validation_error', // 400, with `errors` per field
  'bad_request', // 400, malformed request (e.g. not JSON)
  'not_authenticated', // 401, no or malformed Authorization header
  'invalid_credentials', // 401, sign-in refused (unknown e-mail or wrong password: indistinguishable)
  'account_inactive', // 401, right password but the account is disabled
  'token_invalid', // 401, bad signature/claims/type, or unknown refresh token
  'token_expired', // 401
  'token_reused', // 401, a replaced refresh token used after the grace period: the sign-in was ended
  'session_revoked', // 401, signed out, or password/role/MFA changed
  'forbidden', // 403, role too low
  'not_found', // 404, missing or not yours
  'invalid_password', // 400, the account password given to confirm a change is wrong (errors.password or errors.current_password)
  'invalid_code', // 400 on MFA enable (errors.totp_code); 401 on /api/auth/verify-totp/: wrong, replayed or used code
  'mfa_not_pending', // 400, enable without a setup first
  'mfa_already_enabled', // 409, setup or enable while MFA is on
  'mfa_not_enabled', // 409, disable or new backup codes while MFA is off
  'mfa_setup_expired', // 400, enable with a set-up older than QC_MFA_SETUP_TTL: start the set-up again
  'mfa_required', // 409, disable refused: two-factor is mandatory for this account (mfa_required or QC_MFA_REQUIRED_ROLES)
  'email_change_invalid', // 400, unknown, used or someone else's e-mail confirmation token
  'email_change_expired', // 400, the e-mail confirmation link has expired
  'email_taken', // 409
  'username_taken', // 409
  // Administration (DESIGN §4.1)
  'cannot_change_self', // 400, deleting, deactivating or demoting oneself
  'last_admin', // 409, the last active admin cannot be removed, deactivated or demoted
  'domain_taken', // 409, a domain of that name exists
  'domain_has_users', // 409, spec §5: delete the domain's users first
  // Rspamd rules (DESIGN §4.1, issue 17): the detail names the other rule (#id, value, action, description)
  'filter_exists', // 409, the same family already has a rule for this value (apanel: this from → to pair; system rule: these patterns) with the same action
  'filter_conflict', // 409, as filter_exists but with another action (accept vs reject…): Rspamd would apply whichever it saw first
  // Lists (issue 18): the detail names the other entry (id, kind, address)
  'list_exists', // 409, this owner's list of this kind has the address already
  'list_conflict', // 409, the address is on this owner's other list (whitelist vs blacklist)
  'list_owner_ambiguous', // 400, "Not spam" by an admin with allow_sender 'domain': the recipients are not in exactly one console domain (a step's code)
  'invitation_invalid', // 400, unknown or already used invitation link
  'invitation_expired', // 400, the invitation link has expired
  'invitation_not_pending', // 409, a new invitation for a user who has already set a password
  'mfa_setup_required', // 403, a set-up partial token used anywhere but the two-factor set-up
  'payload_too_large', // 413
  'file_too_large', // 413, a feedback image over 5 MB
  'unsupported_media_type', // 415
  'rate_limited', // 429, with a Retry-After header
  'internal_error', // 500
  'email_send_failed', // 502, the confirmation e-mail could not be handed to the SMTP relay
  'database_unavailable', // 503 with Retry-After: /api/health/, or any route while the database cannot be reached
  'remotes_unavailable', // 503, /remotes.json cannot be read
  // Quarantine (DESIGN §4)
  'email_not_found', // 404, unknown e-mail or none of its recipients is the caller's ("Email not found")
  'attachment_not_found', // 404, the e-mail (in scope) has no attachment at that index
  'already_released', // 409, nothing left to release: already released
  'release_in_progress', // 409, another release of these recipients is under way
  'confirm_resend_required', // 409, the last release's outcome is unknown: retry with {confirm_resend: true}
  'email_deleted', // 409, the e-mail was deleted: it cannot be released
  'invalid_envelope', // 400, CR, LF or NUL (or <>, spaces) in a value that would reach SMTP
  'relay_refused', // 502, the SMTP relay refused the release (with `delivery`); retry allowed
  'relay_unreachable', // 502, the SMTP relay could not be reached; retry allowed
  'release_unknown', // 502, connection lost after DATA: delivered or not is unknown
  'relay_not_configured', // 503, QC_SMTP_URL is unset
  'ingest_disabled', // 503, QC_INGEST_TOKEN is unset
  'maps_disabled', // 503, QC_RSPAMD_MAPS_TOKEN is unset (GET /api/rspamd/maps/…)
  'rspamd_unavailable', // 502, Rspamd's controller could not be reached (learn): nothing recorded
  'rspamd_refused', // 502, Rspamd's controller refused (learn), with its answer in the message: nothing recorded
  'learn_not_configured', // 503, QC_RSPAMD_CONTROLLER_URL is unset
  'learning_not_allowed', // 403, the caller's role may not teach Rspamd (QC_LEARN_ROLES); in "Not spam", the learn step's code
  'learn_in_progress', // 409, the same learn of the same e-mail by the same user is being sent: nothing sent again
  'logs_not_found', // 404, no Haraka log line for this uuid ("No logs found for this email or UUID")
  'digest_link_invalid', // 404, a digest link tampered with, unknown, or no longer its recipient's: nothing done
  'digest_link_used', // 409, a digest link acted once already: the answer carries the first outcome
  'digest_link_expired', // 410, a digest link past its expiry: nothing done
  'raw_purged', // 410, the original message was removed by retention (QC_RETENTION_DAYS): no download, no release
  // Directory sign-in and several addresses per user (issue 31)
  'address_taken', // 409, an address of the request belongs to another user (the detail names it)
  'directory_unavailable', // 503, the directory (LDAP) did not answer in time or refused the service account
  'directory_no_domain', // 403, sign-in through the directory: none of the person's addresses is in a console domain; nothing created
  'directory_address_conflict', // 403, sign-in through the directory: an address of the person belongs to another account (named in the log)
  'directory_managed', // 400 with `errors`, a field of a directory user (addresses, e-mail, role, password…) is set by the directory
  'directory_not_configured', // 409, Admin → Directory test while QC_LDAP_URL is unset
  // Single sign-on (issue 32)
  'sso_ticket_invalid', // 401, POST /api/auth/oidc/exchange/: a ticket unknown, used already or older than 60 s
  'oidc_not_configured', // 404, the OIDC routes while QC_OIDC_ISSUER is unset
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
