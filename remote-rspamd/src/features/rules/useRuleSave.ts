import { notify } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { refusalOf } from './rule-errors';
import type { RuleEndpoint } from './rules.api';
import { useCreateRule, useUpdateRule } from './rules.queries';
import type { RuleKind } from './RuleTable';

/**
 * Saving a rule's form: POST the new rule, or PATCH what changed of the edited one (nothing
 * changed: nothing sent); then spec §8 "Filter successfully created/updated" and back to the
 * list. The api's refusals go on the fields they name, the rest above the form.
 */
export function useRuleSave<F extends string>({
  kind,
  ep,
  live,
  fields,
  conflictField,
  editingId,
  backTo,
  nameOf,
}: {
  kind: RuleKind;
  ep: RuleEndpoint;
  /** The form's live check: the refusals are put on its fields. */
  live: { refused: (errors: Partial<Record<F, string>>) => void };
  fields: readonly F[];
  conflictField: F;
  editingId: string | null;
  backTo: string;
  /** How the saved rule is named in the notice. */
  nameOf: (saved: Record<string, unknown>) => string;
}) {
  const { t } = useTranslation('rspamd');
  const navigate = useNavigate();
  const create = useCreateRule<Record<string, unknown>>(ep);
  const update = useUpdateRule<Record<string, unknown>>(ep);
  const [refusal, setRefusal] = useState<string | null>(null);

  const save = async (body: object) => {
    setRefusal(null);
    if (editingId !== null && !Object.keys(body).length) {
      navigate(backTo);
      return;
    }
    try {
      const saved =
        editingId === null
          ? await create.mutateAsync(body)
          : await update.mutateAsync({ id: editingId, changes: body });
      notify({
        type: 'success',
        title: t(editingId === null ? `kinds.${kind}.created` : `kinds.${kind}.updated`),
        description: nameOf(saved),
      });
      navigate(backTo);
    } catch (error) {
      const outcome = refusalOf(error, t, fields, conflictField);
      live.refused(outcome.fields);
      setRefusal(outcome.message);
    }
  };
  return { save, saving: create.isPending || update.isPending, refusal };
}

/** The fields whose value differs from the rule as loaded (a PATCH sends only those). */
export function changedFields<B extends Record<string, unknown>>(
  body: B,
  original: Record<string, unknown>,
): Partial<B> {
  return Object.fromEntries(Object.entries(body).filter(([k, v]) => v !== original[k])) as Partial<B>;
}
