/** The gate's view of a request (method + path), from the routes' own `access` declarations. */
import { AccessTable } from '../../src/http/access'
import { API_ACCESS } from '../../src/http/api-routes'

const table = new AccessTable(API_ACCESS)

export const policyFor = (method: string, path: string) => table.match(method, path).policy
