/** Every `code` an error body can carry (the OpenAPI `Error.code` enum): the closed catalogue. */
export { ERROR_CODES } from '../lib/errors'
