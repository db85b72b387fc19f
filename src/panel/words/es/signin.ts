/**
 * Signing in, two-step codes, one-time links (join, reset, sign-in), "confirm it's you", password
 * problems (Spanish).
 */
import type { Words } from '../shape'

export const signin: Words['signin'] = {
  signIn: 'Iniciar sesión',
  email: 'Correo electrónico',
  password: 'Contraseña',
  signInPasskey: 'Iniciar sesión con una llave de acceso',
  wrongCredentials: 'Correo o contraseña incorrectos.',
  tooManyAttempts: (m) => `Demasiados intentos. Vuelve a intentarlo en ${m} minuto${m === 1 ? '' : 's'}.`,
  passkeyFailed: 'La llave de acceso no fue aceptada.',
  twoStep: 'Verificación en dos pasos',
  twoStepIntro: 'Escribe el código de 6 dígitos de tu app de autenticación, o uno de tus códigos de recuperación.',
  verify: 'Verificar',
  wrongCode: 'Ese código no es correcto o ya se usó.',
  joinTitle: (s) => `Únete a ${s}`,
  resetTitle: 'Elige una nueva contraseña',
  signInLinkIntro: (e) => `Este enlace de un solo uso inicia tu sesión como ${e}.`,
  continue: 'Continuar',
  yourName: 'Tu nombre',
  newPassword: 'Nueva contraseña',
  passwordHint: 'Al menos 10 caracteres. Evita contraseñas comunes y tu correo.',
  existingAccount: (e) => `Ya tienes una cuenta como ${e}: escribe su contraseña para unirte.`,
  linkUnknown: 'Este enlace no es válido.',
  linkUsed: 'Este enlace ya se usó.',
  linkExpired: 'Este enlace caducó. Pide uno nuevo.',
  goToSignIn: 'Ir a la página de inicio de sesión',
  acceptInvite: 'Aceptar y unirme',
  acceptAs: (email) => `Iniciaste sesión como ${email}. Acepta para unirte con esta cuenta.`,
  signedInAsOther: (me, invited) => `Iniciaste sesión como ${me}, pero esta invitación es para ${invited}.`,
  joinNeedsSession: (email) =>
    `Esta invitación es para ${email}, que no tiene contraseña ni llave de acceso. Abre este enlace en un ` +
    `navegador donde hayas iniciado sesión como ${email}.`,
  signInAnotherWay: 'Iniciar sesión con una llave de acceso',
  cantSignIn: '¿No puedes iniciar sesión?',
  cantSignInMember:
    'Miembro del equipo: pide a un dueño de tu tienda un enlace de restablecimiento (lo crea en la página Equipo).',
  cantSignInOwner: 'Dueño: en el servidor, ejecuta este comando; muestra un enlace de restablecimiento:',
  setPassword: 'Crear una contraseña',
  setPasswordIntro: 'Solo inicias sesión con enlaces de un solo uso. Crea una contraseña para entrar por tu cuenta.',
  repeatPassword: 'Nueva contraseña otra vez',
  passwordsDiffer: 'Las dos contraseñas no son iguales.',
  passwordSet: 'Contraseña creada.',
  confirmTitle: 'Confirma que eres tú',
  confirmIntro: 'Este cambio necesita una prueba reciente de que eres tú. Al confirmar, se realiza.',
  twoStepCode: 'Código de dos pasos',
  usePasskey: 'Usar una llave de acceso',
  confirmNoProof:
    'Tu cuenta no tiene contraseña, llave de acceso ni verificación en dos pasos para confirmar. Inicia sesión de ' +
    'nuevo con un enlace de un solo uso y crea una contraseña.',
  pwRequired: 'Escribe una contraseña.',
  pwTooShort: 'Usa al menos 10 caracteres.',
  pwTooLong: 'Usa como máximo 256 caracteres.',
  pwCommon: 'Esta contraseña es demasiado común. Elige otra.',
  pwContainsEmail: 'La contraseña no debe contener el nombre de tu correo.',
  nameRequired: 'Escribe un nombre.',
  emailInvalid: 'Escribe un correo como nombre@ejemplo.com.',
}
