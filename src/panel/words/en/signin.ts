/**
 * Signing in, two-step codes, one-time links (join, reset, sign-in), "confirm it's you", password
 * problems (English).
 */
export const signin = {
  signIn: 'Sign in',
  email: 'Email',
  password: 'Password',
  signInPasskey: 'Sign in with a passkey',
  wrongCredentials: 'Wrong e-mail or password.',
  tooManyAttempts: (minutes: number) => `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  passkeyFailed: 'The passkey was not accepted.',
  twoStep: 'Two-step sign-in',
  twoStepIntro: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  verify: 'Verify',
  wrongCode: 'That code is not right, or it was already used.',
  joinTitle: (store: string) => `Join ${store}`,
  resetTitle: 'Choose a new password',
  signInLinkIntro: (email: string) => `This one-time link signs you in as ${email}.`,
  continue: 'Continue',
  yourName: 'Your name',
  newPassword: 'New password',
  passwordHint: 'At least 10 characters. Avoid common passwords and your e-mail address.',
  existingAccount: (email: string) => `You already have an account as ${email}: enter its password to join.`,
  linkUnknown: 'This link is not valid.',
  linkUsed: 'This link was already used.',
  linkExpired: 'This link has expired. Ask for a new one.',
  goToSignIn: 'Go to the sign-in page',
  acceptInvite: 'Accept and join',
  acceptAs: (email: string) => `You are signed in as ${email}. Accept to join with this account.`,
  signedInAsOther: (me: string, invited: string) =>
    `You are signed in as ${me}, but this invitation is for ${invited}.`,
  joinNeedsSession: (email: string) =>
    `This invitation is for ${email}, which has no password or passkey. Open this link in a browser where you are ` +
    `signed in as ${email}.`,
  signInAnotherWay: 'Sign in with a passkey instead',
  cantSignIn: "Can't sign in?",
  cantSignInMember: 'Team member: ask an owner of your store for a reset link (they make it on the Team page).',
  cantSignInOwner: 'Owner: on the server, run this command; it prints a reset link:',
  setPassword: 'Set a password',
  setPasswordIntro: 'You sign in with one-time links only. Set a password to sign in on your own.',
  repeatPassword: 'New password again',
  passwordsDiffer: 'The two passwords are not the same.',
  passwordSet: 'Password set.',
  confirmTitle: "Confirm it's you",
  confirmIntro: 'This change needs a recent proof that it is you. Once you confirm, it goes ahead.',
  twoStepCode: 'Two-step code',
  usePasskey: 'Use a passkey',
  confirmNoProof:
    'Your account has no password, passkey or two-step sign-in to confirm with. Sign in again with a new one-time ' +
    'link, then set a password.',
  pwRequired: 'Enter a password.',
  pwTooShort: 'Use at least 10 characters.',
  pwTooLong: 'Use at most 256 characters.',
  pwCommon: 'This password is too common. Choose another.',
  pwContainsEmail: 'The password must not contain your e-mail name.',
  nameRequired: 'Enter a name.',
  emailInvalid: 'Enter an e-mail address such as name@example.com.',
}
