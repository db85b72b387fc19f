/** An OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2): `error`, `error_description`, its status. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description)
  }

  toBody(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description }
  }
}
