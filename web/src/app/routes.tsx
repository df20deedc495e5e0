import { type ComponentType, lazy, Suspense } from 'react';
import { canAll, canSomewhere } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import type { User } from '@mss/contracts/users';
import type { UiKey } from '../i18n/en-US.ts';
import { LoginScreen } from '../features/auth/login-screen.tsx';
import { DashboardScreen } from '../features/dashboard/dashboard-screen.tsx';
import { ForbiddenScreen } from '../features/system/forbidden-screen.tsx';
import { NotAvailableScreen } from '../features/system/not-available-screen.tsx';
import { NotFoundScreen } from '../features/system/not-found-screen.tsx';
import type { GuardedRoute, RoutePermission } from './guard.ts';
import type { ScreenProps } from '../lib/screen.ts';

/**
 * A screen loaded the first time it is opened: the sign-in screens and the dashboard come with the
 * app, every other screen is its own chunk (docs/performance.md "The first screen on a slow line").
 */
const screen = <M extends Record<K, ComponentType<ScreenProps>>, K extends string>(load: () => Promise<M>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

// Rarely opened: not part of the first load (the sign-in screen is).
const ForgotPasswordScreen = screen(() => import('../features/auth/forgot-password-screen.tsx'), 'ForgotPasswordScreen');
const ResetPasswordScreen = screen(() => import('../features/auth/reset-password-screen.tsx'), 'ResetPasswordScreen');
const ClusterAddScreen = screen(() => import('../features/clusters/cluster-screens.tsx'), 'ClusterAddScreen');
const ClusterEditScreen = screen(() => import('../features/clusters/cluster-screens.tsx'), 'ClusterEditScreen');
const ClusterListScreen = screen(() => import('../features/clusters/cluster-screens.tsx'), 'ClusterListScreen');
const MarketAddScreen = screen(() => import('../features/markets/market-screens.tsx'), 'MarketAddScreen');
const MarketEditScreen = screen(() => import('../features/markets/market-screens.tsx'), 'MarketEditScreen');
const MarketListScreen = screen(() => import('../features/markets/market-screens.tsx'), 'MarketListScreen');
const MarketViewScreen = screen(() => import('../features/markets/market-screens.tsx'), 'MarketViewScreen');
const CodeGroupAddScreen = screen(() => import('../features/code-groups/code-group-screens.tsx'), 'CodeGroupAddScreen');
const CodeGroupEditScreen = screen(() => import('../features/code-groups/code-group-screens.tsx'), 'CodeGroupEditScreen');
const CodeGroupListScreen = screen(() => import('../features/code-groups/code-group-screens.tsx'), 'CodeGroupListScreen');
const CodeSectionAddScreen = screen(() => import('../features/code-sections/code-section-screens.tsx'), 'CodeSectionAddScreen');
const CodeSectionEditScreen = screen(() => import('../features/code-sections/code-section-screens.tsx'), 'CodeSectionEditScreen');
const CodeSectionListScreen = screen(() => import('../features/code-sections/code-section-screens.tsx'), 'CodeSectionListScreen');
const CodeAddScreen = screen(() => import('../features/codes/code-screens.tsx'), 'CodeAddScreen');
const CodeEditScreen = screen(() => import('../features/codes/code-screens.tsx'), 'CodeEditScreen');
const CodeListScreen = screen(() => import('../features/codes/code-screens.tsx'), 'CodeListScreen');
const CodeManageScreen = screen(() => import('../features/codes/code-screens.tsx'), 'CodeManageScreen');
const CompanyAddScreen = screen(() => import('../features/companies/company-screens.tsx'), 'CompanyAddScreen');
const CompanyEditScreen = screen(() => import('../features/companies/company-screens.tsx'), 'CompanyEditScreen');
const CompanyListScreen = screen(() => import('../features/companies/company-screens.tsx'), 'CompanyListScreen');
const UserAddScreen = screen(() => import('../features/users/user-screens.tsx'), 'UserAddScreen');
const UserEditScreen = screen(() => import('../features/users/user-screens.tsx'), 'UserEditScreen');
const UserListScreen = screen(() => import('../features/users/user-screens.tsx'), 'UserListScreen');
const UserViewScreen = screen(() => import('../features/users/user-screens.tsx'), 'UserViewScreen');
const CurrencyAddScreen = screen(() => import('../features/currencies/currency-screens.tsx'), 'CurrencyAddScreen');
const CurrencyEditScreen = screen(() => import('../features/currencies/currency-screens.tsx'), 'CurrencyEditScreen');
const CurrencyListScreen = screen(() => import('../features/currencies/currency-screens.tsx'), 'CurrencyListScreen');
const CurrencyConversionAddScreen = screen(() => import('../features/currency-conversions/currency-conversion-screens.tsx'), 'CurrencyConversionAddScreen');
const CurrencyConversionEditScreen = screen(() => import('../features/currency-conversions/currency-conversion-screens.tsx'), 'CurrencyConversionEditScreen');
const CurrencyConversionListScreen = screen(() => import('../features/currency-conversions/currency-conversion-screens.tsx'), 'CurrencyConversionListScreen');
const InformationModalAddScreen = screen(() => import('../features/information-modals/information-modal-screens.tsx'), 'InformationModalAddScreen');
const InformationModalEditScreen = screen(() => import('../features/information-modals/information-modal-screens.tsx'), 'InformationModalEditScreen');
const OrganizationAddScreen = screen(() => import('../features/organizations/organization-screens.tsx'), 'OrganizationAddScreen');
const OrganizationEditScreen = screen(() => import('../features/organizations/organization-screens.tsx'), 'OrganizationEditScreen');
const OrganizationListScreen = screen(() => import('../features/organizations/organization-screens.tsx'), 'OrganizationListScreen');
const AuditScreen = screen(() => import('../features/audit/audit-screen.tsx'), 'AuditScreen');
const HistoryImportScreen = screen(() => import('../features/history/history-screen.tsx'), 'HistoryImportScreen');
const ReleaseAddScreen = screen(() => import('../features/releases/release-screens.tsx'), 'ReleaseAddScreen');
const ReleaseEditScreen = screen(() => import('../features/releases/release-screens.tsx'), 'ReleaseEditScreen');
const ReleaseListScreen = screen(() => import('../features/releases/release-screens.tsx'), 'ReleaseListScreen');
const ApprovalListScreen = screen(() => import('../features/approvals/approval-screen.tsx'), 'ApprovalListScreen');
const ImportHistoryScreen = screen(() => import('../features/imports/import-history-screen.tsx'), 'ImportHistoryScreen');
const ReportHistoryScreen = screen(() => import('../features/reports/report-screens.tsx'), 'ReportHistoryScreen');
const ReportingCompaniesScreen = screen(() => import('../features/reports/report-screens.tsx'), 'ReportingCompaniesScreen');
const CompletenessScreen = screen(() => import('../features/periods/completeness-screen.tsx'), 'CompletenessScreen');
const StatisticsScreen = screen(() => import('../features/statistics/statistics-screen.tsx'), 'StatisticsScreen');
const ClusterStatisticsScreen = screen(() => import('../features/statistics/cluster-statistics-screen.tsx'), 'ClusterStatisticsScreen');
const CompanyStatisticsScreen = screen(() => import('../features/statistics/company-statistics-screen.tsx'), 'CompanyStatisticsScreen');
const ImportScreen = screen(() => import('../features/imports/import-screen.tsx'), 'ImportScreen');
const ClusterPeriodListScreen = screen(() => import('../features/periods/period-screens.tsx'), 'ClusterPeriodListScreen');
const PeriodListScreen = screen(() => import('../features/periods/period-screens.tsx'), 'PeriodListScreen');

export type NavGroup = 'main' | 'reporting' | 'administration' | 'help';

export interface AppRoute extends GuardedRoute {
  /** Catalogue key of the screen title (page title and heading). */
  title: UiKey;
  screen: ComponentType<ScreenProps>;
  /**
   * Shown in the navbar, to the users the permission allows; `title` names the entry when it
   * differs from the screen's title (for this user).
   */
  nav?: { group: NavGroup; title?: (user: User) => UiKey };
}

/** The reporting routes check abilities that are granted per market: held for any market is enough. */
const somewhere =
  (...names: AbilityName[]): RoutePermission =>
  (_user, abilities) =>
    names.some((name) => canSomewhere(abilities, name));

const any = (...names: AbilityName[]): RoutePermission => ({ any: names });
const all = (...names: AbilityName[]): RoutePermission => ({ all: names });

/**
 * Screens that only a super-admin can save (the server's rule): creating organizations, and the
 * master data every organization shares (currencies, currency conversions). An administrator
 * holds the abilities too (to read the lists, to edit their own organization), but is not
 * offered these screens. A super-admin belongs to no organization (docs/product.md §5).
 */
const superAdminWith =
  (...names: AbilityName[]): RoutePermission =>
  (user, abilities) =>
    user.organization === null && canAll(abilities, names);

/** The user guide carries the markdown renderer: loaded when first opened. */
const DocsScreen = lazy(() => import('../features/docs/docs-screen.tsx').then((m) => ({ default: m.DocsScreen })));

/** The communication screen carries the rich-text editor (TipTap, ProseMirror): loaded when first opened. */
const CommunicationScreen = lazy(() => import('../features/communications/communication-screen.tsx').then((m) => ({ default: m.CommunicationScreen })));

/** The user's own account, with the workflow mails switch of the communications feature. */
const ProfileScreen = lazy(() =>
  Promise.all([import('../features/profile/profile-screen.tsx'), import('../features/communications/notification-settings.tsx')]).then(([profile, mails]) => ({
    default: (props: ScreenProps) => <profile.ProfileScreen {...props} mails={<mails.WorkflowMailsSwitch />} />,
  })),
);

/** The dashboard, with the statistics feature's latest figures: they carry the charts, so they load after the first screen (docs/performance.md). */
const LatestFigures = lazy(() => import('../features/statistics/latest-figures.tsx').then((m) => ({ default: m.LatestFigures })));
const Dashboard = (props: ScreenProps) => (
  <DashboardScreen
    {...props}
    statistics={
      <Suspense fallback={null}>
        <LatestFigures />
      </Suspense>
    }
  />
);

/** A screen that a later issue builds; the route and its permission exist already. */
const later = NotAvailableScreen;

const protectedRoute = (path: string, title: UiKey, screen: ComponentType<ScreenProps>, permission?: RoutePermission, nav?: AppRoute['nav']): AppRoute => ({
  path,
  access: 'protected',
  title,
  screen,
  permission,
  nav,
});

/**
 * An administration list with its add and edit screens, under one permission, or one for the list
 * and others for adding and editing: a screen is offered only to those who can save it.
 */
const adminCrud = (
  base: string,
  titles: [UiKey, UiKey, UiKey],
  permission: RoutePermission | { list: RoutePermission; add: RoutePermission; edit: RoutePermission },
  screens: [ComponentType<ScreenProps>, ComponentType<ScreenProps>, ComponentType<ScreenProps>] = [later, later, later],
): AppRoute[] => {
  const { list, add, edit } = typeof permission === 'object' && 'list' in permission ? permission : { list: permission, add: permission, edit: permission };
  return [
    protectedRoute(base, titles[0], screens[0], list, { group: 'administration' }),
    protectedRoute(`${base}/add`, titles[1], screens[1], add),
    protectedRoute(`${base}/:id`, titles[2], screens[2], edit),
  ];
};

/**
 * Every route of docs/product.md §2, with its permission. The guard (guard.ts) enforces `permission`
 * before the screen loads; the navbar shows the `nav` entries the same check allows.
 */
export const appRoutes: AppRoute[] = [
  // Public
  { path: '/login', access: 'public', title: 'title.login', screen: LoginScreen },
  { path: '/forgot-password', access: 'public', title: 'title.forgot_password', screen: ForgotPasswordScreen },
  { path: '/reset-password/:token', access: 'public', title: 'title.reset_password', screen: ResetPasswordScreen },

  // Signed in
  protectedRoute('/', 'title.dashboard', Dashboard, undefined, { group: 'main' }),
  protectedRoute('/docs', 'title.docs', DocsScreen, undefined, { group: 'help' }),
  // Every signed-in user's own account (names, language, password, mails); in the navbar so that a phone reaches it too.
  protectedRoute('/profile', 'title.profile', ProfileScreen, undefined, { group: 'help' }),

  // Statistics (docs/architecture.md §8)
  protectedRoute('/statistics', 'title.statistics', StatisticsScreen, somewhere('view-statistics'), { group: 'main' }),
  protectedRoute('/cluster-statistics', 'title.cluster_statistics', ClusterStatisticsScreen, any('view-cluster-statistics'), {
    group: 'main',
  }),

  // Reporting and history
  protectedRoute('/history/import', 'title.import_history', ImportHistoryScreen, somewhere('upload-reports', 'approve-reports', 'view-report-history'), {
    group: 'reporting',
  }),
  protectedRoute('/reporting-companies/:market/:marketId?', 'title.reporting_companies', ReportingCompaniesScreen, somewhere('approve-reports')),
  // Who still owes what, across every market the user runs (docs/product.md "Completeness").
  protectedRoute('/completeness', 'title.completeness', CompletenessScreen, somewhere('manage-periods', 'approve-reports'), { group: 'reporting' }),
  // Without a market, the first of the user's markets: the navbar leads here ("My reports" for a company's users).
  protectedRoute('/history/:market?', 'title.report_history', ReportHistoryScreen, somewhere('view-report-history'), {
    group: 'reporting',
    title: (user) => (user.company ? 'nav.my_reports' : 'title.report_history'),
  }),
  protectedRoute(
    '/report-statistics/:companyId/:market/:period/:report?',
    'title.report_statistics',
    CompanyStatisticsScreen,
    somewhere('view-statistics', 'view-company-reports'),
  ),
  protectedRoute('/approval-list/:periodUuid', 'title.approval_list', ApprovalListScreen, somewhere('approve-reports')),
  protectedRoute('/period-list/:market?', 'title.period_list', PeriodListScreen, somewhere('manage-periods'), { group: 'reporting' }),
  // The server also asks for approve-reports in each market the file names (docs/decisions.md "History import").
  protectedRoute('/history-import', 'title.history_import', HistoryImportScreen, somewhere('manage-periods'), { group: 'reporting' }),
  protectedRoute('/communication', 'title.communication', CommunicationScreen, somewhere('send-communications'), { group: 'reporting' }),
  protectedRoute('/cluster-approval/:periodUuid', 'title.cluster_approval', ApprovalListScreen, somewhere('approve-cluster-reports')),
  protectedRoute('/cluster-period-list', 'title.cluster_period_list', ClusterPeriodListScreen, somewhere('approve-cluster-reports'), { group: 'reporting' }),
  protectedRoute('/import/:uuid', 'title.data_import', ImportScreen),

  // Administration
  protectedRoute('/users', 'title.users', UserListScreen, any('manage-users', 'list-users'), { group: 'administration' }),
  protectedRoute('/users/add', 'title.user_add', UserAddScreen, all('manage-users')),
  protectedRoute('/users/view/:id', 'title.user_view', UserViewScreen, all('list-users')),
  protectedRoute('/users/:id', 'title.user_edit', UserEditScreen, all('manage-users')),
  protectedRoute('/markets', 'title.markets', MarketListScreen, all('view-markets'), { group: 'administration' }),
  protectedRoute('/markets/add', 'title.market_add', MarketAddScreen, all('manage-markets')),
  protectedRoute('/markets/view/:id', 'title.market_view', MarketViewScreen, all('view-markets')),
  protectedRoute('/markets/:id', 'title.market_edit', MarketEditScreen, all('manage-markets')),
  ...adminCrud('/clusters', ['title.clusters', 'title.cluster_add', 'title.cluster_edit'], all('manage-clusters'), [
    ClusterListScreen,
    ClusterAddScreen,
    ClusterEditScreen,
  ]),
  // An administrator edits their own organization (another one's screen answers not found).
  ...adminCrud(
    '/organizations',
    ['title.organizations', 'title.organization_add', 'title.organization_edit'],
    { list: all('manage-organizations'), add: superAdminWith('manage-organizations'), edit: all('manage-organizations') },
    [OrganizationListScreen, OrganizationAddScreen, OrganizationEditScreen],
  ),
  // docs/product.md §2 declares none; the server saves them for manage-organizations, in the caller's organization.
  protectedRoute('/information-modals/:organizationId/add', 'title.information_modal_add', InformationModalAddScreen, all('manage-organizations')),
  protectedRoute('/information-modals/:organizationId/:id', 'title.information_modal_edit', InformationModalEditScreen, all('manage-organizations')),
  ...adminCrud('/companies', ['title.companies', 'title.company_add', 'title.company_edit'], all('manage-companies'), [
    CompanyListScreen,
    CompanyAddScreen,
    CompanyEditScreen,
  ]),
  protectedRoute('/codes', 'title.codes', CodeListScreen, any('view-codes', 'manage-codes'), { group: 'administration' }),
  protectedRoute('/codes/manage', 'title.codes_manage', CodeManageScreen, all('manage-codes')),
  protectedRoute('/codes/add', 'title.code_add', CodeAddScreen, all('manage-codes')),
  protectedRoute('/codes/:id', 'title.code_edit', CodeEditScreen, all('manage-codes')),
  ...adminCrud('/code_sections', ['title.code_sections', 'title.code_section_add', 'title.code_section_edit'], all('manage-codes'), [
    CodeSectionListScreen,
    CodeSectionAddScreen,
    CodeSectionEditScreen,
  ]),
  ...adminCrud('/code_groups', ['title.code_groups', 'title.code_group_add', 'title.code_group_edit'], all('manage-codes'), [
    CodeGroupListScreen,
    CodeGroupAddScreen,
    CodeGroupEditScreen,
  ]),
  ...adminCrud(
    '/currencies',
    ['title.currencies', 'title.currency_add', 'title.currency_edit'],
    { list: all('manage-currencies'), add: superAdminWith('manage-currencies'), edit: superAdminWith('manage-currencies') },
    [CurrencyListScreen, CurrencyAddScreen, CurrencyEditScreen],
  ),
  ...adminCrud(
    '/currency-conversions',
    ['title.currency_conversions', 'title.currency_conversion_add', 'title.currency_conversion_edit'],
    {
      list: all('manage-currency-conversion'),
      add: superAdminWith('manage-currency-conversion'),
      edit: superAdminWith('manage-currency-conversion'),
    },
    [CurrencyConversionListScreen, CurrencyConversionAddScreen, CurrencyConversionEditScreen],
  ),
  ...adminCrud('/releases', ['title.releases', 'title.release_add', 'title.release_edit'], all('manage-releases'), [
    ReleaseListScreen,
    ReleaseAddScreen,
    ReleaseEditScreen,
  ]),
  // The audit trail: an administrator of the organization, or a super-admin (the server scopes each to what they may read).
  protectedRoute('/audit', 'title.audit', AuditScreen, (user) => user.organization === null || user.roles.some((r) => r.name === 'admin'), {
    group: 'administration',
  }),

  // System
  { path: '/403', access: 'system', title: 'title.forbidden', screen: ForbiddenScreen },
  { path: '*', access: 'system', title: 'title.not_found', screen: NotFoundScreen },
];
