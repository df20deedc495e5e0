import { i18n } from '../../i18n/index.ts';

/*
 * The profile's two-factor sign-in texts: they load with the profile, not with the first screen,
 * whose JavaScript has a budget (docs/performance.md). Each language's translation is in its
 * locale file.
 */
export const twoFactorTexts = {
  'two_factor.title': 'Two-factor sign-in',
  'two_factor.intro_off':
    'After your password, ask for a code from an authenticator app on your phone (such as Microsoft Authenticator, Google Authenticator or 1Password). Someone who learns your password still cannot sign in as you.',
  'two_factor.turn_on': 'Turn on two-factor sign-in',
  'two_factor.scan': 'Scan this QR code with your authenticator app, or type the key into it. Then enter the 6-digit code the app shows.',
  'two_factor.qr_label': 'QR code for your authenticator app',
  'two_factor.key': 'Key',
  'two_factor.code': 'Code from the app',
  'two_factor.confirm': 'Confirm and turn on',
  'two_factor.cancel': 'Cancel',
  'two_factor.recovery_title': 'Your recovery codes',
  'two_factor.recovery_intro':
    'Each code signs you in once if you lose your phone. Keep them somewhere safe, such as a password manager: they are shown only now.',
  'two_factor.recovery_copy': 'Copy the codes',
  'two_factor.recovery_copied': 'Copied',
  'two_factor.recovery_done': 'I have saved them',
  'two_factor.on': 'Two-factor sign-in is on since {{date}}. Recovery codes left: {{count}}.',
  'two_factor.turn_off_intro': 'To turn it off, enter your password and a code from the app (or a recovery code).',
  'two_factor.password': 'Password',
  'two_factor.off_code': 'Code',
  'two_factor.turn_off': 'Turn off two-factor sign-in',
  'two_factor.turned_on': 'Two-factor sign-in is on.',
  'two_factor.turned_off': 'Two-factor sign-in is off.',
} as const;

i18n.addResourceBundle('en-US', 'translation', twoFactorTexts, true, false);
