/**
 * @simplewebauthn/server, loaded at the first passkey operation rather than at start: with its
 * dependencies it adds several MB of resident memory that a server whose people never touch a
 * passkey (or the sign-in page) never needs (bench/memory.ts measures the idle process).
 */
type WebAuthn = typeof import('@simplewebauthn/server')

let loading: Promise<WebAuthn> | undefined
export const webauthn = (): Promise<WebAuthn> => (loading ??= import('@simplewebauthn/server'))
