import { z } from 'zod';

/** A uuid as the API writes them (8-4-4-4-12 hexadecimal digits). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value from an address is a uuid: checked before it reaches a query, where PostgreSQL
 * would refuse anything else (a 500) instead of finding nothing (404).
 */
export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * The `{ uuid }` of a route's address. Not `z.uuid()`: a malformed uuid is a record that does not
 * exist (404, like an unknown one, from the service's `isUuid`), not a 422 about the address.
 */
export const uuidParams = z.object({ uuid: z.string().max(100) });
