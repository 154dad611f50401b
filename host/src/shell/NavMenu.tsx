import {
  ApartmentOutlined,
  BarChartOutlined,
  CalendarOutlined,
  ContactsOutlined,
  ControlOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  FilterOutlined,
  GlobalOutlined,
  HistoryOutlined,
  InboxOutlined,
  LineChartOutlined,
  MessageOutlined,
  ProfileOutlined,
  SafetyOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import Menu, { type MenuProps } from 'antd/es/menu';
import { roleSatisfies, useSession } from '@qc/auth';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useRemotes } from '../app/remotes';
import { visibleNavEntries, type NavGroup, type RouteEntry } from './route-table';

const ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined aria-hidden />,
  mail: <InboxOutlined aria-hidden />,
  history: <HistoryOutlined aria-hidden />,
  statistics: <BarChartOutlined aria-hidden />,
  users: <TeamOutlined aria-hidden />,
  domains: <GlobalOutlined aria-hidden />,
  directory: <ContactsOutlined aria-hidden />,
  rspamd: <FilterOutlined aria-hidden />,
  apanel_filters: <ControlOutlined aria-hidden />,
  system_rules: <SafetyOutlined aria-hidden />,
  haraka_logs: <FileSearchOutlined aria-hidden />,
  haraka_summary: <LineChartOutlined aria-hidden />,
  haraka_logs_per_day: <CalendarOutlined aria-hidden />,
  feedback: <MessageOutlined aria-hidden />,
  settings: <SettingOutlined aria-hidden />,
  profile: <ProfileOutlined aria-hidden />,
};
const GROUP_ICONS: Record<NavGroup, ReactNode> = {
  filters: <FilterOutlined aria-hidden />,
  haraka: <ApartmentOutlined aria-hidden />,
};

/** The entry whose href is the longest prefix of the path. */
export function selectedEntry(pathname: string, entries: readonly RouteEntry[]): RouteEntry | undefined {
  let best: RouteEntry | undefined;
  for (const e of entries) {
    if ((pathname === e.href || pathname.startsWith(`${e.href}/`)) && (!best || e.href.length > best.href.length))
      best = e;
  }
  return best;
}

/** Drawer navigation from the ONE route table, filtered by role and by /remotes.json. */
export function NavMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation('host');
  const role = useSession((s) => s.user?.role);
  const remotesStatus = useRemotes((s) => s.status);
  const remotes = useRemotes((s) => s.remotes);
  const { pathname } = useLocation();

  const entries = useMemo(
    () => visibleNavEntries({ role, remotesStatus, remotes, roleSatisfies }),
    [role, remotesStatus, remotes],
  );

  const items = useMemo<MenuProps['items']>(() => {
    const item = (e: RouteEntry) => ({
      key: e.id,
      icon: ICONS[e.id],
      // The title shows a label the 240 px drawer cuts short ("Filtres du panneau de contrôle").
      label: (
        <Link to={e.href} title={t(`nav.${e.id}`)}>
          {t(`nav.${e.id}`)}
        </Link>
      ),
    });
    const out: NonNullable<MenuProps['items']> = [];
    const groupsAdded = new Set<NavGroup>();
    for (const e of entries) {
      const group = e.nav?.group;
      if (!group) {
        out.push(item(e));
      } else if (!groupsAdded.has(group)) {
        groupsAdded.add(group);
        out.push({
          key: `group:${group}`,
          icon: GROUP_ICONS[group],
          label: t(`nav.${group}`),
          children: entries.filter((x) => x.nav?.group === group).map(item),
        });
      }
    }
    return out;
  }, [entries, t]);

  const selected = selectedEntry(pathname, entries);
  const openGroup = selected?.nav?.group;

  return (
    <Menu
      // Collapsed, a group opens as a pop-up on demand: antd opens the default keys' pop-up at mount
      // (over the page, on every page of the group), so the rail has none; expanding remounts the
      // menu with the page's group open.
      key={collapsed ? 'rail' : 'drawer'}
      mode="inline"
      // "light" in both themes: under antd's dark algorithm it takes the shell's one dark palette
      // (its "dark" menu is navy); the selected entry's colour is set in @qc/ui-state for AA.
      theme="light"
      items={items}
      selectedKeys={selected ? [selected.id] : []}
      defaultOpenKeys={openGroup && !collapsed ? [`group:${openGroup}`] : []}
      style={{ borderInlineEnd: 0 }}
    />
  );
}
