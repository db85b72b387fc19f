/**
 * Signing in, two-step codes, one-time links (join, reset, sign-in), "confirm it's you", password
 * problems (Portuguese).
 */
import type { Words } from '../shape'

export const signin: Words['signin'] = {
  signIn: 'Entrar',
  email: 'E-mail',
  password: 'Senha',
  signInPasskey: 'Entrar com uma chave de acesso',
  wrongCredentials: 'E-mail ou senha incorretos.',
  tooManyAttempts: (m) => `Tentativas demais. Tente de novo em ${m} minuto${m === 1 ? '' : 's'}.`,
  passkeyFailed: 'A chave de acesso não foi aceita.',
  twoStep: 'Verificação em duas etapas',
  twoStepIntro: 'Digite o código de 6 dígitos do seu app autenticador, ou um dos seus códigos de recuperação.',
  verify: 'Verificar',
  wrongCode: 'Esse código não está certo ou já foi usado.',
  joinTitle: (s) => `Entre em ${s}`,
  resetTitle: 'Escolha uma nova senha',
  signInLinkIntro: (e) => `Este link de uso único entra como ${e}.`,
  continue: 'Continuar',
  yourName: 'Seu nome',
  newPassword: 'Nova senha',
  passwordHint: 'Pelo menos 10 caracteres. Evite senhas comuns e o seu e-mail.',
  existingAccount: (e) => `Você já tem uma conta como ${e}: digite a senha dela para entrar na equipe.`,
  linkUnknown: 'Este link não é válido.',
  linkUsed: 'Este link já foi usado.',
  linkExpired: 'Este link expirou. Peça um novo.',
  goToSignIn: 'Ir para a página de entrada',
  acceptInvite: 'Aceitar e entrar na equipe',
  acceptAs: (email) => `Você entrou como ${email}. Aceite para entrar na equipe com esta conta.`,
  signedInAsOther: (me, invited) => `Você entrou como ${me}, mas este convite é para ${invited}.`,
  joinNeedsSession: (email) =>
    `Este convite é para ${email}, que não tem senha nem chave de acesso. Abra este link num navegador em que ` +
    `você entrou como ${email}.`,
  signInAnotherWay: 'Entrar com uma chave de acesso',
  cantSignIn: 'Não consegue entrar?',
  cantSignInMember: 'Membro da equipe: peça a um dono da sua loja um link de redefinição (ele cria na página Equipe).',
  cantSignInOwner: 'Dono: no servidor, rode este comando; ele mostra um link de redefinição:',
  setPassword: 'Criar uma senha',
  setPasswordIntro: 'Você entra só com links de uso único. Crie uma senha para entrar por conta própria.',
  repeatPassword: 'Nova senha de novo',
  passwordsDiffer: 'As duas senhas não são iguais.',
  passwordSet: 'Senha criada.',
  confirmTitle: 'Confirme que é você',
  confirmIntro: 'Esta mudança precisa de uma prova recente de que é você. Ao confirmar, ela é feita.',
  twoStepCode: 'Código de duas etapas',
  usePasskey: 'Usar uma chave de acesso',
  confirmNoProof:
    'Sua conta não tem senha, chave de acesso nem verificação em duas etapas para confirmar. Entre de novo com um ' +
    'link de uso único e crie uma senha.',
  pwRequired: 'Digite uma senha.',
  pwTooShort: 'Use pelo menos 10 caracteres.',
  pwTooLong: 'Use no máximo 256 caracteres.',
  pwCommon: 'Esta senha é comum demais. Escolha outra.',
  pwContainsEmail: 'A senha não pode conter o nome do seu e-mail.',
  nameRequired: 'Digite um nome.',
  emailInvalid: 'Digite um e-mail como nome@exemplo.com.',
}
