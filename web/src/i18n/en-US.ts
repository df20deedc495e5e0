import { enUS as messages } from '@mss/contracts/messages';

/** i18next interpolates {{name}}; the shared catalogue writes :name. */
function toI18next(catalogue: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(catalogue).map(([key, text]) => [key, text.replace(/:([a-z_]+)/g, '{{$1}}')]));
}

/** Texts of the web interface only. Server messages come from the shared catalogue above. */
export const uiEnUS = {
  'app.name': 'Market Sales Statistics',
  'app.loading': 'Loading…',
  'app.page_title': '{{title}} - {{product}}',

  // Screen titles
  'title.dashboard': 'Dashboard',
  'title.login': 'Sign in',
  'title.forgot_password': 'Forgot password',
  'title.reset_password': 'Reset password',
  'title.docs': 'User guide',
  'title.forbidden': 'Permission denied',
  'title.not_found': 'Page not found',
  'title.error': 'Something went wrong',
  'title.import_history': 'Import history',
  'title.reporting_companies': 'Reporting companies',
  'title.report_history': 'Report history',
  'title.report_statistics': 'Report statistics',
  'title.approval_list': 'Approval list',
  'title.period_list': 'Period list',
  'title.communication': 'Communication',
  'title.cluster_approval': 'Cluster approval',
  'title.cluster_period_list': 'Cluster period list',
  'title.data_import': 'Data import',
  'title.users': 'Users',
  'title.user_add': 'Add user',
  'title.user_edit': 'Edit user',
  'title.user_view': 'User',
  'title.markets': 'Markets',
  'title.market_add': 'Add market',
  'title.market_edit': 'Edit market',
  'title.market_view': 'Market',
  'title.currencies': 'Currencies',
  'title.currency_add': 'Add currency',
  'title.currency_edit': 'Edit currency',
  'title.releases': 'Release notes',
  'title.release_add': 'Add release note',
  'title.release_edit': 'Edit release note',
  'title.clusters': 'Market clusters',
  'title.cluster_add': 'Add market cluster',
  'title.cluster_edit': 'Edit market cluster',
  'title.organizations': 'Organizations',
  'title.organization_add': 'Add organization',
  'title.organization_edit': 'Edit organization',
  'title.information_modal_add': 'Add information modal',
  'title.information_modal_edit': 'Edit information modal',
  'title.companies': 'Companies',
  'title.company_add': 'Add company',
  'title.company_edit': 'Edit company',
  'title.code_sections': 'Code sections',
  'title.code_section_add': 'Add code section',
  'title.code_section_edit': 'Edit code section',
  'title.codes': 'Codes',
  'title.codes_manage': 'Manage codes',
  'title.code_add': 'Add code',
  'title.code_edit': 'Edit code',
  'title.code_groups': 'Code groups',
  'title.code_group_add': 'Add code group',
  'title.code_group_edit': 'Edit code group',
  'title.currency_conversions': 'Currency conversions',
  'title.currency_conversion_add': 'Add currency conversion',
  'title.currency_conversion_edit': 'Edit currency conversion',

  // Navigation
  'nav.group.reporting': 'Reporting',
  'nav.group.administration': 'Administration',
  'nav.group.help': 'Help',
  'nav.open': 'Open navigation',

  // Header
  'header.sign_out': 'Sign out',
  'header.no_organization': 'No organization',
  'header.user_menu': 'Account',

  // Sign in
  'login.heading': 'Sign in to your account',
  'login.subheading': 'Report and follow the sales statistics of your markets.',
  'login.email': 'E-mail',
  'login.password': 'Password',
  'login.organization': 'Organization',
  'login.organization_placeholder': 'Choose an organization',
  'login.organization_help': 'Your account belongs to several organizations. Choose the one to work in.',
  'login.submit': 'Sign in',
  'login.forgot_password': 'Forgot your password?',
  'login.failed_title': 'Could not sign you in',
  'login.change_account': 'Use another account',

  // Forgot password
  'forgot.heading': 'Forgot your password?',
  'forgot.intro': 'Enter the e-mail address of your account and we will send you a link to choose a new password.',
  'forgot.email': 'E-mail',
  'forgot.submit': 'Send reset link',
  'forgot.back': 'Back to sign in',

  // Reset password
  'reset.heading': 'Choose a new password',
  'reset.intro': 'The password must be at least 8 characters long.',
  'reset.email': 'E-mail',
  'reset.password': 'New password',
  'reset.password_confirmation': 'Confirm new password',
  'reset.submit': 'Reset password',
  'reset.back': 'Back to sign in',
  'reset.request_new_link': 'Request a new link',

  // Dashboard
  'dashboard.welcome': 'Welcome, {{name}}',
  'dashboard.intro': 'This is your overview. The menu shows the screens your role gives you access to.',
  'dashboard.organization': 'Organization',
  'dashboard.role': 'Role',
  'dashboard.roles': 'Roles',
  'dashboard.markets': 'Markets',
  'dashboard.no_markets': 'You are not assigned to any market.',
  'dashboard.company': 'Company',
  'dashboard.company_markets': 'Reports for {{count}} market(s)',
  'dashboard.shortcuts': 'Your screens',
  'dashboard.no_role': 'No role',

  // System screens
  'system.forbidden_hint': 'If you think you should have access, contact your administrator.',
  'system.not_found_hint': 'The address may be mistyped, or the page may have moved.',
  'system.go_dashboard': 'Go to the dashboard',
  'system.go_login': 'Go to sign in',
  'system.not_available': 'This screen is not available yet.',
  'system.not_available_hint': 'It is part of an upcoming release. Your access to it is already set up.',
  'system.parameters': 'Parameters',
  'system.reload': 'Reload the page',

  // Feedback
  'feedback.error_title': 'Error',
  'feedback.success_title': 'Success',
  'feedback.confirm_title': 'Please confirm',
  'feedback.ok': 'OK',
  'feedback.confirm': 'Confirm',
  'feedback.cancel': 'Cancel',
} as const;

export type UiKey = keyof typeof uiEnUS;

export const enUSCatalogue: Record<string, string> = { ...toI18next(messages), ...uiEnUS };
