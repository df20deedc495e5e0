import { type ComponentType, lazy } from 'react';
import { canSomewhere } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import type { UiKey } from '../i18n/en-US.ts';
import { ForgotPasswordScreen } from '../features/auth/forgot-password-screen.tsx';
import { LoginScreen } from '../features/auth/login-screen.tsx';
import { ResetPasswordScreen } from '../features/auth/reset-password-screen.tsx';
import { ClusterAddScreen, ClusterEditScreen, ClusterListScreen } from '../features/clusters/cluster-screens.tsx';
import { MarketAddScreen, MarketEditScreen, MarketListScreen, MarketViewScreen } from '../features/markets/market-screens.tsx';
import { CodeGroupAddScreen, CodeGroupEditScreen, CodeGroupListScreen } from '../features/code-groups/code-group-screens.tsx';
import { CodeSectionAddScreen, CodeSectionEditScreen, CodeSectionListScreen } from '../features/code-sections/code-section-screens.tsx';
import { CodeAddScreen, CodeEditScreen, CodeListScreen, CodeManageScreen } from '../features/codes/code-screens.tsx';
import { CompanyAddScreen, CompanyEditScreen, CompanyListScreen } from '../features/companies/company-screens.tsx';
import { UserAddScreen, UserEditScreen, UserListScreen, UserViewScreen } from '../features/users/user-screens.tsx';
import { CurrencyAddScreen, CurrencyEditScreen, CurrencyListScreen } from '../features/currencies/currency-screens.tsx';
import {
  CurrencyConversionAddScreen,
  CurrencyConversionEditScreen,
  CurrencyConversionListScreen,
} from '../features/currency-conversions/currency-conversion-screens.tsx';
import { InformationModalAddScreen, InformationModalEditScreen } from '../features/information-modals/information-modal-screens.tsx';
import { OrganizationAddScreen, OrganizationEditScreen, OrganizationListScreen } from '../features/organizations/organization-screens.tsx';
import { ReleaseAddScreen, ReleaseEditScreen, ReleaseListScreen } from '../features/releases/release-screens.tsx';
import { DashboardScreen } from '../features/dashboard/dashboard-screen.tsx';
import { ApprovalListScreen } from '../features/approvals/approval-screen.tsx';
import { ImportHistoryScreen } from '../features/imports/import-history-screen.tsx';
import { ReportHistoryScreen, ReportingCompaniesScreen } from '../features/reports/report-screens.tsx';
import { StatisticsScreen } from '../features/statistics/statistics-screen.tsx';
import { ClusterStatisticsScreen } from '../features/statistics/cluster-statistics-screen.tsx';
import { CompanyStatisticsScreen } from '../features/statistics/company-statistics-screen.tsx';
import { ImportScreen } from '../features/imports/import-screen.tsx';
import { ClusterPeriodListScreen, PeriodListScreen } from '../features/periods/period-screens.tsx';
import { ForbiddenScreen } from '../features/system/forbidden-screen.tsx';
import { NotAvailableScreen } from '../features/system/not-available-screen.tsx';
import { NotFoundScreen } from '../features/system/not-found-screen.tsx';
import type { GuardedRoute, RoutePermission } from './guard.ts';
import type { ScreenProps } from '../lib/screen.ts';

export type NavGroup = 'main' | 'reporting' | 'administration' | 'help';

export interface AppRoute extends GuardedRoute {
  /** Catalogue key of the screen title (page title and heading). */
  title: UiKey;
  screen: ComponentType<ScreenProps>;
  /** Shown in the navbar, to the users the permission allows. */
  nav?: { group: NavGroup };
}

/** The reporting routes check abilities that are granted per market: held for any market is enough. */
const somewhere =
  (...names: AbilityName[]): RoutePermission =>
  (_user, abilities) =>
    names.some((name) => canSomewhere(abilities, name));

const any = (...names: AbilityName[]): RoutePermission => ({ any: names });
const all = (...names: AbilityName[]): RoutePermission => ({ all: names });

/** The user guide carries the markdown renderer: loaded when first opened. */
const DocsScreen = lazy(() => import('../features/docs/docs-screen.tsx').then((m) => ({ default: m.DocsScreen })));

/** The communication screen carries the rich-text editor (TipTap, ProseMirror): loaded when first opened. */
const CommunicationScreen = lazy(() => import('../features/communications/communication-screen.tsx').then((m) => ({ default: m.CommunicationScreen })));

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

/** An administration list with its add and edit screens, all under one permission. */
const adminCrud = (
  base: string,
  titles: [UiKey, UiKey, UiKey],
  permission: RoutePermission,
  screens: [ComponentType<ScreenProps>, ComponentType<ScreenProps>, ComponentType<ScreenProps>] = [later, later, later],
): AppRoute[] => [
  protectedRoute(base, titles[0], screens[0], permission, { group: 'administration' }),
  protectedRoute(`${base}/add`, titles[1], screens[1], permission),
  protectedRoute(`${base}/:id`, titles[2], screens[2], permission),
];

/**
 * Every route of spec §2, with its permission. The guard (guard.ts) enforces `permission`
 * before the screen loads; the navbar shows the `nav` entries the same check allows.
 */
export const appRoutes: AppRoute[] = [
  // Public
  { path: '/login', access: 'public', title: 'title.login', screen: LoginScreen },
  { path: '/forgot-password', access: 'public', title: 'title.forgot_password', screen: ForgotPasswordScreen },
  { path: '/reset-password/:token', access: 'public', title: 'title.reset_password', screen: ResetPasswordScreen },

  // Signed in
  protectedRoute('/', 'title.dashboard', DashboardScreen, undefined, { group: 'main' }),
  protectedRoute('/docs', 'title.docs', DocsScreen, undefined, { group: 'help' }),

  // Statistics (DESIGN §8)
  protectedRoute('/statistics', 'title.statistics', StatisticsScreen, somewhere('view-statistics'), { group: 'main' }),
  protectedRoute('/cluster-statistics', 'title.cluster_statistics', ClusterStatisticsScreen, any('view-cluster-statistics'), {
    group: 'main',
  }),

  // Reporting and history
  protectedRoute('/history/import', 'title.import_history', ImportHistoryScreen, somewhere('upload-reports', 'approve-reports', 'view-report-history'), {
    group: 'reporting',
  }),
  protectedRoute('/reporting-companies/:market/:marketId?', 'title.reporting_companies', ReportingCompaniesScreen, somewhere('approve-reports')),
  protectedRoute('/history/:market', 'title.report_history', ReportHistoryScreen, somewhere('view-report-history')),
  protectedRoute(
    '/report-statistics/:companyId/:market/:period/:report?',
    'title.report_statistics',
    CompanyStatisticsScreen,
    somewhere('view-statistics', 'view-company-reports'),
  ),
  protectedRoute('/approval-list/:periodUuid', 'title.approval_list', ApprovalListScreen, somewhere('approve-reports')),
  protectedRoute('/period-list/:market?', 'title.period_list', PeriodListScreen, somewhere('manage-periods'), { group: 'reporting' }),
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
  ...adminCrud('/organizations', ['title.organizations', 'title.organization_add', 'title.organization_edit'], all('manage-organizations'), [
    OrganizationListScreen,
    OrganizationAddScreen,
    OrganizationEditScreen,
  ]),
  protectedRoute('/information-modals/:organizationId/add', 'title.information_modal_add', InformationModalAddScreen),
  protectedRoute('/information-modals/:organizationId/:id', 'title.information_modal_edit', InformationModalEditScreen),
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
  ...adminCrud('/currencies', ['title.currencies', 'title.currency_add', 'title.currency_edit'], all('manage-currencies'), [
    CurrencyListScreen,
    CurrencyAddScreen,
    CurrencyEditScreen,
  ]),
  ...adminCrud(
    '/currency-conversions',
    ['title.currency_conversions', 'title.currency_conversion_add', 'title.currency_conversion_edit'],
    all('manage-currency-conversion'),
    [CurrencyConversionListScreen, CurrencyConversionAddScreen, CurrencyConversionEditScreen],
  ),
  ...adminCrud('/releases', ['title.releases', 'title.release_add', 'title.release_edit'], all('manage-releases'), [
    ReleaseListScreen,
    ReleaseAddScreen,
    ReleaseEditScreen,
  ]),

  // System
  { path: '/403', access: 'system', title: 'title.forbidden', screen: ForbiddenScreen },
  { path: '*', access: 'system', title: 'title.not_found', screen: NotFoundScreen },
];
