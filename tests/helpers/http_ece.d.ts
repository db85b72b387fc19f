/** The few parts of `http_ece` (RFC 8188 / 8291 content coding) the push tests use. */
declare module 'http_ece' {
  const ece: { decrypt(content: Buffer, params: Record<string, unknown>): Buffer }
  export default ece
}
