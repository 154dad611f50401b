import type { FormInstance, Rule } from 'antd/es/form';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRefusal, refusalOf } from './rule-errors';

/** Typing settles for this long before the api checks the form (POST/PATCH `?dry_run=true`). */
export const LIVE_CHECK_MS = 300;

export interface LiveCheck<F extends string, R> {
  /** The body the answer is about (JSON): an answer for other values is not shown. */
  key: string;
  /** The api's refusals, by field (translated). */
  errors: Partial<Record<F, string>>;
  /** What the rule would be once saved (normalised), when the api accepted it. */
  stored: R | null;
}

/**
 * Live validation by the api: after each change (debounced), the form's body is sent as a dry run;
 * the api's field errors show under the fields the user has been in (through `rule(field)`, so
 * antd places and announces them like its own), and `stored` is the rule as the api would save it
 * (the pattern's normalised form). A failure to check (network, 5xx) shows nothing: saving says it.
 */
export function useLiveCheck<V, F extends string, R>({
  form,
  fields,
  conflictField,
  formNames = {},
  body,
  standIns,
  send,
}: {
  form: FormInstance<V>;
  /** The api's field names the form shows. */
  fields: readonly F[];
  /** The form's name of an api field, where they differ (`owner_id` → `owner`). */
  formNames?: Partial<Record<F, string>>;
  /** Where a conflict (409) without a field is shown: the pattern. */
  conflictField: F;
  /** The request body for these values, or null when there is nothing to check yet. */
  body: (values: V) => object | null;
  /**
   * Values sent in place of fields the form itself refuses yet (no action chosen, a description
   * too short): the api checks its request as a whole before the pattern, so without them it would
   * say nothing about the pattern until the form is complete. Its answer on them is not shown.
   */
  standIns?: (values: V) => Partial<Record<F, unknown>>;
  send: (body: object, signal: AbortSignal) => Promise<R>;
}) {
  const { t } = useTranslation('rspamd');
  const [check, setCheck] = useState<LiveCheck<F, R> | null>(null);
  const latest = useRef<LiveCheck<F, R> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);
  // The callers' functions change on every render; the check always uses the latest.
  const args = useRef({ body, standIns, send, fields, conflictField, formNames, t });
  useEffect(() => {
    args.current = { body, standIns, send, fields, conflictField, formNames, t };
  });

  const keyOf = (values: V) => JSON.stringify(args.current.body(values));

  const run = useCallback(async () => {
    const values = form.getFieldsValue(true) as V;
    const payload = args.current.body(values);
    inFlight.current?.abort();
    if (!payload) return;
    const controller = new AbortController();
    inFlight.current = controller;
    const key = JSON.stringify(payload);
    const standing = args.current.standIns?.(values) ?? {};
    let next: LiveCheck<F, R>;
    try {
      next = { key, errors: {}, stored: await args.current.send({ ...payload, ...standing }, controller.signal) };
    } catch (error) {
      if (controller.signal.aborted || !isRefusal(error)) return;
      const { fields, conflictField, t } = args.current;
      const errors = refusalOf(error, t, fields, conflictField, { actionUnknown: 'action' in standing }).fields;
      for (const f of Object.keys(standing) as F[]) delete errors[f];
      next = { key, errors, stored: null };
    }
    latest.current = next;
    setCheck(next);
    const { fields, formNames } = args.current;
    const touched = fields.map((f) => formNames[f] ?? f).filter((name) => form.isFieldTouched(name as never));
    if (touched.length) form.validateFields(touched as never[]).catch(() => undefined);
  }, [form]);

  /** Call on every change of the form's values. */
  const schedule = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void run(), LIVE_CHECK_MS);
  }, [run]);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  /**
   * The api refused these values on save: its messages stay on the fields (as the live check's
   * would) until the values change; a check still pending would otherwise clear them.
   */
  const refused = useCallback(
    (errors: Partial<Record<F, string>>) => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
      const values = form.getFieldsValue(true) as V;
      const next = { key: JSON.stringify(args.current.body(values)), errors, stored: null };
      latest.current = next;
      setCheck(next);
      const { formNames } = args.current;
      const names = (Object.keys(errors) as F[]).map((f) => formNames[f] ?? f);
      if (names.length) form.validateFields(names as never[]).catch(() => undefined);
    },
    [form],
  );

  /** A field's rule: the api's refusal of the values now in the form, if it has answered for them. */
  const rule =
    (field: F): Rule =>
    () => ({
      validator: async () => {
        const last = latest.current;
        const message = last?.errors[field];
        if (message && last.key === keyOf(form.getFieldsValue(true) as V)) throw new Error(message);
      },
    });

  const current = check && check.key === JSON.stringify(body(form.getFieldsValue(true) as V)) ? check : null;
  return { schedule, rule, refused, check: current };
}

/**
 * The stand-ins of a rule's form (see `standIns`): an action when none is chosen, a description or
 * name when the form would refuse it (shorter than `min`).
 */
export function ruleStandIns(
  values: { action?: string; description?: string; name?: string },
  fields: { action: string; description?: number; name?: number },
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!values.action) out.action = fields.action;
  for (const f of ['description', 'name'] as const) {
    const min = fields[f];
    if (min !== undefined && (values[f] ?? '').trim().length < min) out[f] = 'Live check';
  }
  return out;
}
