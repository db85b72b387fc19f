/**
 * The customer detail's row read as a raw statement: Drizzle's per-call query building cost
 * more than the primary-key read itself (docs/decisions/001, 006). Row type from the schema.
 */
import type { Database } from 'bun:sqlite'
import { columns } from '../../db/sql'
import { customers, type Customer } from '../../db/schema'

const CUSTOMER_FIELDS = columns(customers)

export const customerById = (client: Database, id: string): Customer | undefined =>
  client.query<Customer, [string]>(`SELECT ${CUSTOMER_FIELDS} FROM customers WHERE id = ?`).all(id)[0]
