/**
 * `table[key]` for a key from outside, such as a query string: only the table's own entries, so
 * that `?refund=toString` or `__proto__` finds nothing instead of a function or an object that
 * would break the page.
 */
export function ownEntry<T extends object>(
  table: T,
  key: string | null | undefined,
): T[keyof T] | undefined {
  return key != null && Object.hasOwn(table, key) ? table[key as keyof T] : undefined;
}
