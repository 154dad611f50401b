import Flex from 'antd/es/flex';
import Radio from 'antd/es/radio';
import Tabs from 'antd/es/tabs';
import Typography from 'antd/es/typography';
import { useSession } from '@qc/auth';
import type { ListKind } from '@qc/contracts';
import { Field, type SearchOption, SearchSelect, useChoiceGroup } from '@qc/ui';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPanel } from './ListPanel';
import { ownerParams, searchDomains, searchUsers, type ListOwner } from './lists.queries';

/** Whose list: one's own, one's domain (domain_admin), a domain or the global one (admin), a user's. */
export type ScopeChoice = 'mine' | 'my_domain' | 'domain' | 'global' | 'user';

export function scopeChoices(role: string | undefined): ScopeChoice[] {
  if (role === 'admin') return ['mine', 'domain', 'global', 'user'];
  if (role === 'domain_admin') return ['mine', 'my_domain', 'user'];
  return ['mine'];
}

const KINDS: ListKind[] = ['whitelist', 'blacklist'];

/**
 * Settings §lists (issue 18): the whitelist and the blacklist in two tabs. A domain_admin and an
 * admin first choose whose list (the pickers search on the server); a user sees their own.
 */
export function ListsSection() {
  const { t } = useTranslation('host');
  const choiceGroup = useChoiceGroup();
  const base = useId();
  const role = useSession((s) => s.user?.role);
  const choices = scopeChoices(role);
  const [choice, setChoice] = useState<ScopeChoice>('mine');
  const [user, setUser] = useState<SearchOption | null>(null);
  const [domain, setDomain] = useState<SearchOption | null>(null);
  const [kind, setKind] = useState<ListKind>('whitelist');

  const owner: ListOwner | null =
    choice === 'mine'
      ? { scope: 'user' }
      : choice === 'my_domain'
        ? { scope: 'domain' }
        : choice === 'global'
          ? { scope: 'global' }
          : choice === 'user'
            ? user && { scope: 'user', user }
            : domain && { scope: 'domain', domain };
  const waiting = choice === 'user' ? 'lists.scope.choose_user' : 'lists.scope.choose_domain';
  const help =
    choice === 'global' ? 'lists.scope.global_help' : choice.endsWith('domain') ? 'lists.scope.domain_help' : null;
  // A panel per owner and kind: its search and its pages start afresh on another owner.
  const ownerKey = owner ? JSON.stringify(ownerParams(owner, kind)) : 'none';
  const panel = useMemo(
    () =>
      owner ? (
        <ListPanel key={ownerKey} kind={kind} owner={ownerParams(owner, kind)} />
      ) : (
        <Typography.Paragraph type="secondary" data-testid="list-choose-owner">
          {t(waiting)}
        </Typography.Paragraph>
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- ownerKey stands for owner
    [ownerKey, kind, waiting, t],
  );

  return (
    <Flex vertical gap={16} data-testid="lists-section">
      {choices.length > 1 ? (
        <Flex vertical gap={8}>
          <Radio.Group
            aria-label={t('lists.scope.label')}
            {...choiceGroup}
            value={choice}
            onChange={(e) => setChoice(e.target.value as ScopeChoice)}
            options={choices.map((c) => ({ value: c, label: t(`lists.scope.${c}`) }))}
            style={{ display: 'flex', flexWrap: 'wrap', rowGap: 8 }}
            data-testid="lists-scope"
          />
          {choice === 'user' ? (
            <Field id={`${base}-user`} label={t('lists.scope.user_field')} width={360}>
              <SearchSelect
                id={`${base}-user`}
                value={user?.value}
                known={user}
                onChange={setUser}
                search={searchUsers}
                placeholder={t('lists.scope.pick_user')}
                notFound={t('lists.scope.no_user')}
                data-testid="lists-user-picker"
              />
            </Field>
          ) : null}
          {choice === 'domain' ? (
            <Field id={`${base}-domain`} label={t('lists.scope.domain_field')} width={360}>
              <SearchSelect
                id={`${base}-domain`}
                value={domain?.value}
                known={domain}
                onChange={setDomain}
                search={searchDomains}
                placeholder={t('lists.scope.pick_domain')}
                notFound={t('lists.scope.no_domain')}
                data-testid="lists-domain-picker"
              />
            </Field>
          ) : null}
          {help ? (
            <Typography.Text type="secondary" style={{ fontSize: 13 }}>
              {t(help)}
            </Typography.Text>
          ) : null}
        </Flex>
      ) : null}
      <Tabs
        activeKey={kind}
        onChange={(k) => setKind(k as ListKind)}
        aria-label={t('lists.tabs.label')}
        destroyOnHidden
        items={KINDS.map((k) => ({
          key: k,
          label: <span data-testid={`lists-tab-${k}`}>{t(`lists.tabs.${k}`)}</span>,
          children: k === kind ? panel : null,
        }))}
      />
    </Flex>
  );
}
