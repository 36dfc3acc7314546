import {
  Activity,
  BarChart3,
  CreditCard,
  Inbox,
  LayoutDashboard,
  ListTree,
  Megaphone,
  PlugZap,
  Settings,
  Sparkles,
  Users,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  to: string;
  /** Key in the common namespace. */
  labelKey: string;
  icon: LucideIcon;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/dashboard', labelKey: 'nav.dashboard', icon: LayoutDashboard },
  { to: '/ad-accounts', labelKey: 'nav.adAccounts', icon: Megaphone },
  { to: '/campaigns', labelKey: 'nav.campaigns', icon: ListTree },
  { to: '/rules', labelKey: 'nav.rules', icon: Workflow },
  { to: '/inbox', labelKey: 'nav.inbox', icon: Inbox },
  { to: '/ai-studio', labelKey: 'nav.aiStudio', icon: Sparkles },
  { to: '/reports', labelKey: 'nav.reports', icon: BarChart3 },
  { to: '/activity', labelKey: 'nav.activity', icon: Activity },
  { to: '/members', labelKey: 'nav.members', icon: Users },
  { to: '/subscription', labelKey: 'nav.subscription', icon: CreditCard },
  { to: '/settings', labelKey: 'nav.settings', icon: Settings },
  { to: '/test', labelKey: 'nav.testConnection', icon: PlugZap },
];
